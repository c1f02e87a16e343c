/* test_store.c — the tournament record on a real PostgreSQL: migrations
 * applied once, idempotent creation, claims and leases, a result recorded
 * once and only from the lease that holds the match, standings from the
 * view; and the worker message codec, including every truncated frame.
 * The database: ARBITER_TEST_DB when set (CI starts one), else a private
 * cluster under a temporary state directory; each run uses a database of
 * its own. */
#include "config.h"
#include "ddz.h"
#include "arb_num.h"
#include "pgctl.h"
#include "scheduler.h"
#include "plan.h"
#include "bench_fixtures.h"
#include "store.h"
#include "wire.h"
#include "test_db.h"
#include "arb_error.h"
#include "../unit/test_util.h"

#include <libpq-fe.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char conninfo[1400];


static void config(tn_config *cfg, tn_entrant *e)
{
    memset(cfg, 0, sizeof *cfg);
    snprintf(cfg->name, sizeof cfg->name, "store test");
    match_config_init(&cfg->match, &arb_game_doudizhu);   /* preset standard */
    cfg->format = TN_ROUND_ROBIN;
    cfg->seed = 9;
    cfg->nentrants = 4;
    cfg->entrants = e;
    const char *names[] = {"ann", "bob", "cy", "dee"};
    for (int i = 0; i < 4; i++) {
        memset(&e[i], 0, sizeof e[i]);
        snprintf(e[i].name, sizeof e[i].name, "%s", names[i]);
        snprintf(e[i].command, sizeof e[i].command, "/bin/%s", names[i]);
    }
    e[0].seed = 1;
    e[1].rating = 1612.5;
}

/* A small, plausible result: bot 0 wins, bot 2 forfeits. */
static void fake_result(match_result *res, int ndeals)
{
    memset(res, 0, sizeof *res);
    res->nbots = 3;
    res->ndeals = (uint32_t)ndeals;
    res->deals = calloc((size_t)ndeals, sizeof *res->deals);
    const int64_t totals[3] = {12, 0, -12};
    for (int b = 0; b < 3; b++) {
        res->bots[b].total = totals[b];
        res->bots[b].rank = b + 1;
        snprintf(res->bots[b].sandbox, sizeof res->bots[b].sandbox, "rlimits");
    }
    /* text that must be quoted inside an array literal, written as given */
    snprintf(res->bots[1].sandbox, sizeof res->bots[1].sandbox, "\"a,b\"{c}\\ NULL");
    res->bots[2].forfeited = true;
    /* its penalties, a note with what an array literal must quote */
    res->bots[2].penalties = 2;
    res->penalties = calloc(2, sizeof *res->penalties);
    res->npenalties = 2;
    res->penalties[0] = (match_penalty){.game = 0, .decision = 4, .seat = 2, .bot = 2, .reason = MATCH_R_TIMEOUT,
                                        .consequence = MATCH_AUTOPLAY};
    snprintf(res->penalties[0].note, sizeof res->penalties[0].note, "no reply in 1000 ms");
    res->penalties[1] = (match_penalty){.game = 1, .decision = 2, .seat = 0, .bot = 2, .reason = MATCH_R_ILLEGAL,
                                        .consequence = MATCH_FORFEIT_MATCH};
    snprintf(res->penalties[1].note, sizeof res->penalties[1].note, "refused (reply \"{a,b}\\ NULL\")");
    res->winners = 1;
    for (int g = 0; g < ndeals; g++) {
        res->deals[g].game = (uint32_t)g;
        res->deals[g].seed = 1000u + (uint64_t)g;
        res->deals[g].forfeit_bot = -1;
        for (int s = 0; s < 3; s++) {
            res->deals[g].bot_at[s] = (uint8_t)s;
            res->deals[g].score[s] = g == 0 ? totals[s] : 0;
        }
    }
    if (ndeals > 2) {   /* a seed above 2^63 and a forfeited deal, as recorded */
        res->deals[2].seed = UINT64_MAX;
        res->deals[2].forfeit_bot = 2;
    }
}

static void test_store(void)
{
    char err[512];
    store *s = store_open(conninfo, err, sizeof err);
    CHECKF(s != NULL, "%s", err);
    if (!s)
        return;
    CHECKF(store_migrate(s, err, sizeof err) == 0, "%s", err);
    CHECKF(store_migrate(s, err, sizeof err) == 0, "again: %s", err);   /* applied once */

    tn_config cfg;
    tn_entrant ent[4];
    config(&cfg, ent);
    int64_t tid, tid2;
    bool created, created2;
    CHECK(store_tournament(s, &cfg, "name: store test\n", "d1", false, &tid, &created, err, sizeof err) == 0 && created);
    CHECK(store_tournament(s, &cfg, "name: store test\n", "d1", false, &tid2, &created2, err, sizeof err) == 0);
    CHECK(tid2 == tid && !created2);                                       /* a resume finds it */

    store_table tables[2] = {{3, {0, 1, 2, 0}}, {3, {1, 2, 3, 0}}};
    CHECK(store_add_round(s, tid, 1, "main", tables, 2, cfg.seed, err, sizeof err) == 0);
    CHECK(store_add_round(s, tid, 1, "main", tables, 2, cfg.seed, err, sizeof err) == 0);   /* idempotent */
    int p, l, d, v;
    CHECK(store_counts(s, tid, -1, &p, &l, &d, &v) == 0 && p == 2 && l == 0 && d == 0);
    CHECK(store_last_round(s, tid) == 1);

    store_match m1, m2, m3;
    CHECK(store_claim(s, tid, "local:a", 60, &m1, err, sizeof err) == 1);
    CHECK(m1.tbl == 0 && m1.nslots == 3 && m1.entrant[2] == 2 && m1.lease_gen == 1);
    CHECK(store_claim(s, tid, "local:a", 60, &m2, err, sizeof err) == 1 && m2.tbl == 1);
    CHECK(store_claim(s, tid, "local:a", 60, &m3, err, sizeof err) == 0);  /* nothing left */

    match_result res;
    fake_result(&res, 3);
    CHECKF(store_record(s, &m1, &res, "abc", "/tmp/x.arbt", NULL, 0, NULL, NULL, err, sizeof err) == 0, "%s", err);
    CHECK(store_record(s, &m1, &res, "abc", "/tmp/x.arbt", NULL, 0, NULL, NULL, err, sizeof err) == ARB_ESTATE);  /* once */
    char m1id[24];
    snprintf(m1id, sizeof m1id, "%lld", (long long)m1.id);
    /* its penalties, one row each, in the same transaction, written once */
    store_rows pens;
    CHECKF(store_report(s, STORE_REPORT_MATCH_PENALTIES, m1.id, &pens, err, sizeof err) == 0, "%s", err);
    CHECKF(pens.nrows == 2, "%d penalty rows", pens.nrows);
    CHECK(strcmp(store_cell(&pens, 0, 1), "0") == 0 && strcmp(store_cell(&pens, 0, 2), "4") == 0
          && strcmp(store_cell(&pens, 0, 3), "2") == 0 && strcmp(store_cell(&pens, 0, 4), "timeout") == 0
          && strcmp(store_cell(&pens, 0, 5), "autoplay") == 0);
    CHECK(strcmp(store_cell(&pens, 1, 0), "1") == 0 && strcmp(store_cell(&pens, 1, 4), "illegal") == 0
          && strcmp(store_cell(&pens, 1, 5), "forfeit-match") == 0
          && strcmp(store_cell(&pens, 1, 6), res.penalties[1].note) == 0);
    store_rows_release(&pens);

    /* The run that held m2 is gone: its lease returns to the queue, the
     * next claim gets a new generation, and a result from the old one is
     * discarded. */
    CHECK(store_release_leases(s, tid, "local:") == 1);
    store_match again;
    CHECK(store_claim(s, tid, "local:b", 60, &again, err, sizeof err) == 1 && again.id == m2.id && again.lease_gen == 2);
    CHECK(store_record(s, &m2, &res, "old", "", NULL, 0, NULL, NULL, err, sizeof err) == ARB_ESTATE);
    CHECK(store_renew(s, &m2, 60) == ARB_ESTATE && store_renew(s, &again, 60) == 0);
    CHECK(store_record(s, &again, &res, "new", "", NULL, 0, NULL, NULL, err, sizeof err) == 0);
    CHECK(store_counts(s, tid, 1, &p, &l, &d, &v) == 0 && p == 0 && l == 0 && d == 2);

    /* Standings: bob played twice (12 then 0 with the slots of table 1),
     * ann won table 0, dee never finished first. */
    store_standing rows[8];
    int n = store_standings(s, tid, false, rows, 8);
    CHECK(n == 4);
    double points = 0;
    int64_t score = 0;
    for (int i = 0; i < n; i++) {
        points += rows[i].points;
        score += rows[i].score;
    }
    CHECK(points == 6.0);   /* 3 points per three-seat match (2 + 1 + 0) */
    CHECK(score == 0);
    CHECK(strcmp(rows[0].name, "bob") == 0 && rows[0].points == 3.0 && rows[0].played == 2);
    CHECK(rows[n - 1].points == 0 && rows[n - 1].forfeited);

    store_table order[2];
    CHECK(store_round_results(s, tid, 1, false, order, NULL, NULL, 2) == 0);
    CHECK(order[0].nslots == 3 && order[0].entrant[0] == 0 && order[0].entrant[2] == 2);
    CHECK(order[1].entrant[0] == 1 && order[1].entrant[2] == 3);

    /* Exactly the rows written: 2 matches x 3 deals. */
    PGconn *c = PQconnectdb(conninfo);
    PGresult *r = PQexec(c, "SELECT count(*) FROM deals");
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && (int)arb_cell_int(PQgetvalue(r, 0, 0)) == 6);
    PQclear(r);
    r = PQexecParams(c, "SELECT seed::text, seat_slots::text, scores::text, coalesce(forfeit_slot, -1) FROM deals "
                        "WHERE match_id = $1::bigint ORDER BY game", 1, NULL, (const char *[]){m1id}, NULL, NULL, 0);
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 3 && strcmp(PQgetvalue(r, 0, 0), "1000") == 0
          && strcmp(PQgetvalue(r, 0, 2), "{12,0,-12}") == 0 && strcmp(PQgetvalue(r, 0, 1), "{0,1,2}") == 0
          && strcmp(PQgetvalue(r, 0, 3), "-1") == 0 && strcmp(PQgetvalue(r, 2, 0), "18446744073709551615") == 0
          && strcmp(PQgetvalue(r, 2, 3), "2") == 0);
    PQclear(r);
    r = PQexecParams(c, "SELECT sandbox, total, points, rank, forfeited FROM match_seats WHERE match_id = $1::bigint "
                        "ORDER BY slot", 1, NULL, (const char *[]){m1id}, NULL, NULL, 0);
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 3
          && strcmp(PQgetvalue(r, 1, 0), "\"a,b\"{c}\\ NULL") == 0 && strcmp(PQgetvalue(r, 0, 0), "rlimits") == 0
          && strcmp(PQgetvalue(r, 2, 1), "-12") == 0 && strcmp(PQgetvalue(r, 0, 2), "2") == 0
          && strcmp(PQgetvalue(r, 2, 4), "t") == 0 && strcmp(PQgetvalue(r, 1, 4), "f") == 0);
    PQclear(r);
    r = PQexec(c, "SELECT count(*) FROM events WHERE kind IN ('start', 'resume', 'round', 'lease-expired')");
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && (int)arb_cell_int(PQgetvalue(r, 0, 0)) == 4);
    PQclear(r);
    PQfinish(c);

    /* What the tools read: a tournament by name (revealed once done), the
     * status reports, the finished matches with their transcripts; plan's
     * view of the record. */
    int64_t named;
    uint64_t seed;
    bool revealed = true;
    CHECK(store_tournament_named(s, cfg.name, &named, &seed, &revealed) == 1 && named == tid && seed == cfg.seed
          && !revealed);
    CHECK(store_tournament_named(s, "no such", &named, &seed, &revealed) == 0);
    char byid[32];
    snprintf(byid, sizeof byid, "#%lld", (long long)tid);
    CHECK(store_tournament_named(s, byid, &named, &seed, &revealed) == 1 && named == tid);
    CHECK(store_tournament_named(s, "#999999", &named, &seed, &revealed) == 0);
    store_rows rows_r;
    CHECKF(store_report(s, STORE_REPORT_TOURNAMENTS, 0, &rows_r, err, sizeof err) == 0, "%s", err);
    /* the game too (the list had no game column) */
    CHECKF(rows_r.nrows == 1 && rows_r.ncols == 11 && strcmp(store_cell(&rows_r, 0, 10), cfg.match.game->name) == 0,
           "tournaments report: %d columns, game \"%s\"", rows_r.ncols, rows_r.ncols > 10 ? store_cell(&rows_r, 0, 10) : "");
    CHECK(rows_r.nrows == 1 && arb_cell_int(store_cell(&rows_r, 0, 0)) == tid
          && strcmp(store_cell(&rows_r, 0, 1), cfg.name) == 0
          && strcmp(store_cell(&rows_r, 0, 6), "2") == 0 && strcmp(store_cell(&rows_r, 0, 8), "1") == 0
          && strcmp(store_cell(&rows_r, 5, 5), "") == 0);
    store_rows_release(&rows_r);
    CHECK(store_report(s, STORE_REPORT_DONE_MATCHES, tid, &rows_r, err, sizeof err) == 0 && rows_r.nrows == 2
          && strcmp(store_cell(&rows_r, 0, 2), "/tmp/x.arbt") == 0 && strcmp(store_cell(&rows_r, 1, 3), "new") == 0);
    store_rows_release(&rows_r);
    CHECK(store_report(s, STORE_REPORT_DONE_MATCHES, tid + 1000, &rows_r, err, sizeof err) == 0 && rows_r.nrows == 0);
    store_rows_release(&rows_r);
    plan_record rec;
    CHECKF(plan_record_load(s, tid, false, &rec, err, sizeof err) == 0, "%s", err);
    CHECK(rec.nrounds == 1 && rec.rounds[0].ntables == 2 && !rec.rounds[0].in_play && rec.nstandings == 4
          && rec.rounds[0].order[1].entrant[0] == 1 && rec.standings[0].entrant == rows[0].entrant);
    plan_record_release(&rec);

    CHECK(store_finish(s, tid) == 0);
    CHECK(store_tournament_named(s, cfg.name, &named, &seed, &revealed) == 1 && revealed);
    match_result_release(&res);
    store_close(s);
}

/* A ladder's matchmaking view kept between decisions (it reads only the
 * rows changed since) chooses exactly as a view that reads everything, as
 * results are recorded, matches made and left in flight, entries retired,
 * suspended, brought back and joined — from another connection too. */
static void test_ladder_view(void)
{
    char err[512];
    store *s = store_open(conninfo, err, sizeof err), *other = store_open(conninfo, err, sizeof err);
    CHECKF(s && other, "%s", err);
    if (!s || !other)
        return;
    int64_t tid;
    CHECKF(store_bench_ladder(s, "view test", "doudizhu", "standard", 12, 40, &tid, err, sizeof err) == 0, "%s", err);
    char path[] = "/tmp/arbiter-view-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    const char *yaml = "name: view test\nformat: ladder\nrating: openskill\nladder: {concurrent: 4}\n";
    CHECK(write(fd, yaml, strlen(yaml)) == (ssize_t)strlen(yaml));
    close(fd);
    tn_config cfg;
    CHECKF(tn_config_load(path, &cfg, err, sizeof err) == 0, "%s", err);
    unlink(path);
    sched_ladder_view *kept = sched_ladder_view_new();
    char names[64][80];   /* by entrant: the bench's e0.., then those who join */
    int nnames = 12;
    for (int k = 0; k < nnames; k++)
        snprintf(names[k], sizeof names[k], "e%d", k);
    int agreed = 0, made = 0, leased = 0;
    store_match held = {0};
    for (int i = 0; i < 48; i++) {
        sched_ladder_view *fresh = sched_ladder_view_new();
        sched_ladder_pick a, b;
        int ga = sched_ladder_choose(s, tid, &cfg, kept, NULL, NULL, (uint64_t)i, &a, err, sizeof err);
        int gb = sched_ladder_choose(s, tid, &cfg, fresh, NULL, NULL, (uint64_t)i, &b, err, sizeof err);
        sched_ladder_view_free(fresh);
        bool same = ga == gb && (ga != 1 || memcmp(a.table.entrant, b.table.entrant, sizeof a.table.entrant) == 0);
        CHECKF(same, "decision %d: kept view %d, fresh view %d", i, ga, gb);
        agreed += same;
        if (ga != 1)
            continue;
        switch (i % 6) {
        case 0: case 1: case 2: {   /* a match made and played */
            CHECK(store_ladder_add(s, tid, 1000 + i, "ladder", &a.table, a.pos, 1, a.note, err, sizeof err) == 0);
            store_match m;
            CHECK(store_claim(s, tid, "view", 60, &m, err, sizeof err) == 1);
            match_result *res = calloc(1, sizeof *res);
            res->nbots = m.nslots;
            for (int k = 0; k < m.nslots; k++)
                res->bots[k].rank = (k + i) % m.nslots + 1, res->team_of_bot[k] = -1;
            CHECKF(store_record(s, &m, res, "d", "", NULL, 0, NULL, NULL, err, sizeof err) == 0, "%s", err);
            free(res);
            made++;
            break;
        }
        case 3:   /* a match made and left in flight until the next turn of 3 */
            if (held.id) {
                match_result *res = calloc(1, sizeof *res);
                res->nbots = held.nslots;
                for (int k = 0; k < held.nslots; k++)
                    res->bots[k].rank = k + 1, res->team_of_bot[k] = -1;
                CHECKF(store_record(s, &held, res, "d", "", NULL, 0, NULL, NULL, err, sizeof err) == 0, "%s", err);
                free(res);
            }
            CHECK(store_ladder_add(s, tid, 1000 + i, "ladder", &a.table, a.pos, 1, a.note, err, sizeof err) == 0);
            CHECK(store_claim(s, tid, "view", 60, &held, err, sizeof err) == 1);
            leased++;
            break;
        case 4: {   /* the anchor retired from elsewhere; another suspended, then back */
            const char *name = names[a.table.entrant[0]];
            int rr = store_ladder_retire(other, tid, name, err, sizeof err);
            CHECKF(rr == 1, "retire %s: %d %s", name, rr, rr < 0 ? err : "");
            CHECK(store_ladder_set(other, tid, a.table.entrant[1], "suspended", "test") == 0);
            if (i > 20)
                CHECK(store_ladder_set(other, tid, a.table.entrant[1], "active", "back") == 0);
            break;
        }
        default: {   /* a newcomer joins from elsewhere */
            int version;
            char name[64], base[32];
            snprintf(base, sizeof base, "new%d", i);
            store_ladder_entry_in j = {.base = base, .command = "/bin/true", .entrant = -1};
            CHECKF(store_ladder_join(other, tid, &j, &version, name, sizeof name, err, sizeof err) == 0, "%s", err);
            snprintf(names[nnames++], sizeof names[0], "%s", name);
            break;
        }
        }
    }
    CHECK(agreed == 48 && made >= 20 && leased >= 5);
    sched_ladder_view_free(kept);
    tn_config_release(&cfg);
    store_close(other);
    store_close(s);
}

static void test_wire(void)
{
    wire_assign a;
    memset(&a, 0, sizeof a);
    match_config_init(&a.cfg, &arb_game_doudizhu);
    a.match_id = 77;
    a.lease_gen = 3;
    a.cfg.nbots = 3;
    a.cfg.deals = 12;
    a.cfg.duplicate = MATCH_DUP_ROTATE;
    snprintf(a.cfg.options, sizeof a.cfg.options, "kicker_bomb=true");
    for (int b = 0; b < 3; b++) {
        snprintf(a.cfg.bots[b].name, sizeof a.cfg.bots[b].name, "bot%d", b);
        snprintf(a.cfg.bots[b].argv[0], sizeof a.cfg.bots[b].argv[0], "/bin/bot%d", b);
        snprintf(a.cfg.bots[b].argv[1], sizeof a.cfg.bots[b].argv[1], "--fast");
        a.cfg.bots[b].argc = 2;
    }
    uint8_t *frame;
    size_t len;
    CHECK(wire_encode_assign(&a, &frame, &len) == 0);
    CHECK(wire_kind_of(frame, len) == WIRE_ASSIGN);
    wire_assign back;
    CHECK(wire_decode_assign(frame, len, &back) == 0);
    CHECK(back.match_id == 77 && back.lease_gen == 3 && back.cfg.deals == 12 && back.cfg.nbots == 3
          && strcmp(back.cfg.bots[2].argv[1], "--fast") == 0 && back.cfg.game == &arb_game_doudizhu
          && strcmp(back.cfg.options, "kicker_bomb=true") == 0);
    int refused = 0;
    for (size_t cut = 0; cut < len; cut++)
        refused += wire_decode_assign(frame, cut, &back) != 0;
    CHECK(refused == (int)len);
    free(frame);

    wire_result w;
    memset(&w, 0, sizeof w);
    w.match_id = 77;
    w.lease_gen = 3;
    w.ok = true;
    snprintf(w.digest, sizeof w.digest, "%064d", 0);
    fake_result(&w.res, 5);
    w.is_signed = true;
    memset(w.signature, 0xa5, sizeof w.signature);
    CHECK(wire_encode_result(&w, &frame, &len) == 0);
    wire_result wb;
    CHECK(wire_decode_result(frame, len, &wb) == 0);
    CHECK(wb.is_signed && memcmp(wb.signature, w.signature, sizeof w.signature) == 0);
    CHECK(wb.res.ndeals == 5 && wb.res.nbots == 3 && wb.res.bots[2].forfeited && wb.res.bots[0].total == 12
          && wb.res.deals[4].seed == 1004 && wb.res.deals[0].score[2] == -12);
    match_result_release(&wb.res);
    refused = 0;
    for (size_t cut = 0; cut < len; cut++) {
        int rc = wire_decode_result(frame, cut, &wb);
        refused += rc != 0;
        if (rc == 0)
            match_result_release(&wb.res);
    }
    CHECK(refused == (int)len);
    /* a frame claiming 2^32-1 deals in a few bytes is refused, not allocated */
    /* [2, 1, 1, false, "", "", nil, "", [1000, 0, 0, 0, [], [2^32-1 deals...]]] */
    static const uint8_t lie[] = {0x99, 0x02, 0x01, 0x01, 0xc2, 0xa0, 0xa0, 0xc0, 0xa0, 0x97, 0xcd, 0x03,
                                  0xe8, 0x00, 0x00, 0x00, 0x90, 0xdd, 0xff, 0xff, 0xff, 0xff};
    CHECK(wire_decode_result(lie, sizeof lie, &wb) == ARB_ECORRUPT);
    free(frame);
    match_result_release(&w.res);
    uint8_t *h;
    char name[64];
    int ver, slots, nrun;
    wire_lease run[2] = {{5, 1}, {6, 2}}, got[2];
    uint8_t pk[32] = {9, 8, 7}, pk_back[32];
    CHECK(wire_hello("w1", 4, run, 2, pk, &h, &len) == 0
          && wire_decode_hello(h, len, &ver, name, sizeof name, &slots, got, 2, &nrun, pk_back) == 0 && slots == 4
          && memcmp(pk, pk_back, sizeof pk) == 0
          && strcmp(name, "w1") == 0 && nrun == 2 && got[1].match_id == 6 && got[1].gen == 2);
    free(h);
}

/* Which failures are waited out (store_failed_transiently): by SQLSTATE,
 * and on a real connection — its backend terminated (57P01, then the
 * connection lost), a disk-full error (53100) and a check violation
 * (23514, not transient) raised by a trigger, each cleared by the next
 * statement that succeeds. Before it, the scheduler daemon skipped a
 * tournament for good when PostgreSQL's disk was full. */
static void test_transient(void)
{
    static const struct { const char *state; bool transient; } codes[] = {
        {"53100", true}, {"53200", true}, {"53300", true}, {"08006", true}, {"08001", true}, {"57P01", true},
        {"57P02", true}, {"57P03", true}, {"40001", true}, {"40P01", true}, {"23505", false}, {"23514", false},
        {"42P01", false}, {"57014", false}, {"22P02", false}, {"", false}, {"5310", false}, {NULL, false},
    };
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        CHECKF(store_sqlstate_transient(codes[i].state) == codes[i].transient, "SQLSTATE %s: transient %d",
               codes[i].state ? codes[i].state : "NULL", !codes[i].transient);
    char err[512];
    store *s = store_open(conninfo, err, sizeof err);
    PGconn *other = PQconnectdb(conninfo);
    CHECKF(s && PQstatus(other) == CONNECTION_OK, "%s", s ? PQerrorMessage(other) : err);
    if (!s || PQstatus(other) != CONNECTION_OK)
        goto out;
    int p, l, d, v;
    CHECK(store_counts(s, 1, -1, &p, &l, &d, &v) == 0 && !store_failed_transiently(s));
    CHECK(store_last_failure(s)[0] == 0);
    /* the server ends the session (as a restart does) */
    PQclear(PQexec(other, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = "
                          "current_database() AND pid <> pg_backend_pid() AND application_name = ''"));
    usleep(200000);
    CHECK(store_counts(s, 1, -1, &p, &l, &d, &v) != 0);
    CHECKF(store_failed_transiently(s), "a terminated session: %s", store_last_failure(s));
    CHECK(store_connected(s));   /* made again */
    CHECK(store_counts(s, 1, -1, &p, &l, &d, &v) == 0 && !store_failed_transiently(s));
    /* the disk full, as PostgreSQL says it when a table cannot grow */
    PQclear(PQexec(other, "CREATE FUNCTION fault_raise() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                          "RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = "
                          "TG_ARGV[0]; END $$"));
    PQclear(PQexec(other, "CREATE TRIGGER fault BEFORE INSERT OR UPDATE ON workers FOR EACH ROW "
                          "EXECUTE FUNCTION fault_raise('53100')"));
    CHECK(store_worker(s, "w-fault", 1, "connected", 0, 0, 0, 0) != 0);
    CHECKF(store_failed_transiently(s) && strncmp(store_last_failure(s), "53100: ", 7) == 0
           && strstr(store_last_failure(s), "No space left on device"), "disk full: %s", store_last_failure(s));
    CHECK(store_counts(s, 1, -1, &p, &l, &d, &v) == 0 && !store_failed_transiently(s));
    /* a constraint broken: not something time mends */
    PQclear(PQexec(other, "DROP TRIGGER fault ON workers"));
    PQclear(PQexec(other, "CREATE TRIGGER fault BEFORE INSERT OR UPDATE ON workers FOR EACH ROW "
                          "EXECUTE FUNCTION fault_raise('23514')"));
    CHECK(store_worker(s, "w-fault", 1, "connected", 0, 0, 0, 0) != 0);
    CHECKF(!store_failed_transiently(s) && strncmp(store_last_failure(s), "23514: ", 7) == 0, "check violation: %s",
           store_last_failure(s));
    PQclear(PQexec(other, "DROP TRIGGER fault ON workers; DROP FUNCTION fault_raise()"));
    CHECK(store_worker(s, "w-fault", 1, "connected", 0, 0, 0, 0) == 0 && !store_failed_transiently(s));
out:
    PQfinish(other);
    store_close(s);
}

int main(void)
{
    test_db tdb;
    test_db_open(&tdb, "store");
    snprintf(conninfo, sizeof conninfo, "%s", tdb.conninfo);
    test_store();
    test_ladder_view();
    test_wire();
    test_transient();
    test_db_close(&tdb);
    return TEST_DONE("store");
}
