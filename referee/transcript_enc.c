/* transcript_enc.c — transcript records as msgpack-c packs them
 * (transcript_enc.h, docs/transcripts.md). */
#include "transcript_enc.h"
#include "arb_time.h"

#include <string.h>

void tr_enc_init(tr_enc *e)
{
    msgpack_sbuffer_init(&e->sb);
    msgpack_packer_init(&e->pk, &e->sb, msgpack_sbuffer_write);
}

void tr_enc_release(tr_enc *e) { msgpack_sbuffer_destroy(&e->sb); }

tr_type tr_enc_type(match_rec_type t)
{
    static const tr_type types[] = {
        [MR_HEADER] = TR_HEADER, [MR_INFO] = TR_INFO, [MR_DEAL] = TR_DEAL, [MR_SEND] = TR_SEND,
        [MR_ASK] = TR_ASK, [MR_RECV] = TR_RECV, [MR_VERDICT] = TR_VERDICT, [MR_PENALTY] = TR_PENALTY,
        [MR_RESULT] = TR_RESULT, [MR_BOTEND] = TR_BOTEND, [MR_END] = TR_END, [MR_RESTART] = TR_RESTART,
    };
    return types[t];
}

static void pack_str(msgpack_packer *pk, const char *s)
{
    msgpack_pack_str_with_body(pk, s, strlen(s));
}

static void pack_bool(msgpack_packer *pk, bool b)
{
    b ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
}

static void begin(tr_enc *e, tr_type type, uint32_t nfields, uint64_t t)
{
    msgpack_sbuffer_clear(&e->sb);
    msgpack_pack_array(&e->pk, nfields + 2);
    msgpack_pack_uint64(&e->pk, (uint64_t)type);
    msgpack_pack_uint64(&e->pk, t);
}

static void header(msgpack_packer *pk, const match_config *cfg, const char *options)
{
    msgpack_pack_map(pk, 18);
    pack_str(pk, "format"); pack_str(pk, "arbiter-transcript");
    /* a version 2 transcript re-judged is encoded as version 2 (the judge
     * then writes no late-reply notes); every match played now is the latest */
    pack_str(pk, "version"); msgpack_pack_uint32(pk, cfg->late_reply_notes ? TR_VERSION : 2);
    pack_str(pk, "key"); msgpack_pack_bin_with_body(pk, cfg->key, sizeof cfg->key);
    pack_str(pk, "key_label"); pack_str(pk, cfg->key_label);
    pack_str(pk, "commitment"); pack_str(pk, cfg->commitment);
    pack_str(pk, "game"); pack_str(pk, cfg->game->name);
    pack_str(pk, "rules"); pack_str(pk, cfg->preset);
    pack_str(pk, "options"); pack_str(pk, options);
    pack_str(pk, "seed"); msgpack_pack_uint64(pk, cfg->seed);
    pack_str(pk, "deals"); msgpack_pack_uint32(pk, cfg->deals);
    pack_str(pk, "duplicate"); pack_str(pk, match_duplicate_name((match_duplicate)cfg->duplicate));
    pack_str(pk, "fixed_seats"); pack_bool(pk, cfg->fixed_seats);
    pack_str(pk, "clock");
    msgpack_pack_array(pk, 4);
    msgpack_pack_int64(pk, cfg->move_ms);
    msgpack_pack_int64(pk, cfg->deal_ms);
    msgpack_pack_int64(pk, cfg->bank_ms);
    msgpack_pack_int64(pk, cfg->startup_ms);
    pack_str(pk, "policy"); pack_str(pk, match_policy_name((match_policy)cfg->policy));
    pack_str(pk, "strikes"); msgpack_pack_uint32(pk, cfg->strikes);
    pack_str(pk, "forfeit_points"); msgpack_pack_int64(pk, cfg->forfeit_points);
    pack_str(pk, "players"); msgpack_pack_int(pk, cfg->nbots);
    pack_str(pk, "bots");
    msgpack_pack_array(pk, (size_t)cfg->nbots);
    for (int b = 0; b < cfg->nbots; b++) {
        /* what its entrant declared, only when it did: a bot that declared
         * nothing is written as it always was */
        const match_bot_cfg *bc = &cfg->bots[b];
        msgpack_pack_map(pk, 2 + (bc->startup_ms > 0) + (bc->nenv > 0));
        pack_str(pk, "name"); pack_str(pk, bc->name);
        pack_str(pk, "argv");
        msgpack_pack_array(pk, (size_t)bc->argc);
        for (int i = 0; i < bc->argc; i++)
            pack_str(pk, bc->argv[i]);
        if (bc->startup_ms > 0) {
            pack_str(pk, "startup_ms");
            msgpack_pack_int64(pk, bc->startup_ms);
        }
        if (bc->nenv > 0) {
            pack_str(pk, "env");
            msgpack_pack_array(pk, (size_t)bc->nenv);
            for (const char *line = bc->env; *line;) {
                const char *nl = strchr(line, '\n');
                size_t n = nl ? (size_t)(nl - line) : strlen(line);
                msgpack_pack_str_with_body(pk, line, n);
                line += n + (nl != NULL);
            }
        }
    }
}

/* The match's end. A game with fixed teams adds their standings ("teams":
 * the team of each bot, each team's total and rank); a match played at
 * tables (duplicate play of a game whose match may end early) adds each
 * table's match ("tables"); a game without them writes exactly what it
 * always has. */
static void end(msgpack_packer *pk, const match_result *res)
{
    msgpack_pack_map(pk, 5 + (res->nteams > 0) + (res->ntables > 0));
    pack_str(pk, "totals");
    msgpack_pack_array(pk, (size_t)res->nbots);
    for (int b = 0; b < res->nbots; b++)
        msgpack_pack_int64(pk, res->bots[b].total);
    pack_str(pk, "winners");
    msgpack_pack_uint32(pk, res->winners);
    pack_str(pk, "forfeited");
    msgpack_pack_array(pk, (size_t)res->nbots);
    for (int b = 0; b < res->nbots; b++)
        pack_bool(pk, res->bots[b].forfeited);
    pack_str(pk, "games");
    msgpack_pack_uint32(pk, res->ndeals);
    pack_str(pk, "decisions");
    msgpack_pack_uint64(pk, res->decisions);
    if (res->nteams > 0) {
        pack_str(pk, "teams");
        msgpack_pack_map(pk, 3);
        pack_str(pk, "of_bot");
        msgpack_pack_array(pk, (size_t)res->nbots);
        for (int b = 0; b < res->nbots; b++)
            msgpack_pack_int(pk, res->team_of_bot[b]);
        pack_str(pk, "totals");
        msgpack_pack_array(pk, (size_t)res->nteams);
        for (int t = 0; t < res->nteams; t++)
            msgpack_pack_int64(pk, res->team_total[t]);
        pack_str(pk, "ranks");
        msgpack_pack_array(pk, (size_t)res->nteams);
        for (int t = 0; t < res->nteams; t++)
            msgpack_pack_int(pk, res->team_rank[t]);
    }
    if (res->ntables > 0) {
        /* [first game, games played, winner team (-1 none), [team scores]] per table */
        pack_str(pk, "tables");
        msgpack_pack_array(pk, res->ntables);
        for (uint32_t i = 0; i < res->ntables; i++) {
            const match_table *tb = &res->tables[i];
            msgpack_pack_array(pk, 4);
            msgpack_pack_uint32(pk, tb->first < res->ndeals ? res->deals[tb->first].game : tb->first);
            msgpack_pack_uint32(pk, tb->games);
            msgpack_pack_int(pk, tb->winner_team);
            msgpack_pack_array(pk, (size_t)res->nteams);
            for (int t = 0; t < res->nteams; t++)
                msgpack_pack_int64(pk, tb->team_score[t]);
        }
    }
}

void tr_enc_record(tr_enc *e, const match_rec *r)
{
    msgpack_packer *pk = &e->pk;
    switch (r->type) {
    case MR_HEADER:
        begin(e, TR_HEADER, 1, 0);
        header(pk, r->cfg, r->text);
        break;
    case MR_INFO: {
        char wall[40];
        begin(e, TR_INFO, 1, 0);
        msgpack_pack_map(pk, 2);
        pack_str(pk, "engine"); pack_str(pk, r->text);
        pack_str(pk, "started"); pack_str(pk, arb_wall_iso8601(wall, sizeof wall));
        break;
    }
    case MR_DEAL:
        begin(e, TR_DEAL, 5, r->t);
        msgpack_pack_uint32(pk, r->deal->game);
        msgpack_pack_uint32(pk, r->deal->deal);
        msgpack_pack_uint32(pk, r->deal->seating);
        msgpack_pack_uint64(pk, r->deal->seed);
        msgpack_pack_array(pk, (size_t)r->nseats);
        for (int i = 0; i < r->nseats; i++)
            msgpack_pack_uint8(pk, r->deal->bot_at[i]);
        break;
    case MR_SEND:
        begin(e, TR_SEND, 2, r->t);
        msgpack_pack_int(pk, r->bot);
        pack_str(pk, r->text);
        break;
    case MR_ASK:
        begin(e, TR_ASK, 5, r->t);
        msgpack_pack_int(pk, r->bot);
        msgpack_pack_uint32(pk, r->game);
        msgpack_pack_uint32(pk, r->decision);
        pack_str(pk, r->text);
        msgpack_pack_int(pk, r->nlegal);
        break;
    case MR_RECV:
        begin(e, TR_RECV, 5, r->t);
        msgpack_pack_int(pk, r->bot);
        msgpack_pack_uint8(pk, r->reply->kind);
        if (r->reply->kind == MD_LINE)
            pack_str(pk, r->reply->line);
        else
            msgpack_pack_nil(pk);
        msgpack_pack_uint64(pk, r->reply->wall_ns);
        msgpack_pack_uint64(pk, r->reply->cpu_ns);
        break;
    case MR_VERDICT:
        begin(e, TR_VERDICT, 6, r->t);
        msgpack_pack_uint32(pk, r->game);
        msgpack_pack_uint32(pk, r->decision);
        msgpack_pack_int(pk, r->seat);
        msgpack_pack_int(pk, r->bot);
        pack_str(pk, r->text);
        pack_bool(pk, r->by_referee);
        break;
    case MR_PENALTY:
        begin(e, TR_PENALTY, 7, r->t);
        msgpack_pack_uint32(pk, r->game);
        msgpack_pack_uint32(pk, r->decision);
        msgpack_pack_int(pk, r->seat);
        msgpack_pack_int(pk, r->bot);
        pack_str(pk, match_reason_name(r->reason));
        pack_str(pk, r->consequence);
        pack_str(pk, r->text);
        break;
    case MR_RESULT:
        begin(e, TR_RESULT, 3, r->t);
        msgpack_pack_uint32(pk, r->deal->game);
        msgpack_pack_array(pk, (size_t)r->nseats);
        for (int i = 0; i < r->nseats; i++)
            msgpack_pack_int64(pk, r->deal->score[i]);
        msgpack_pack_int(pk, r->deal->forfeit_bot);
        break;
    case MR_BOTEND:
        begin(e, TR_BOTEND, 4, r->t);
        msgpack_pack_int(pk, r->bot);
        pack_str(pk, r->text);
        msgpack_pack_int(pk, r->status);
        msgpack_pack_bin_with_body(pk, r->err_text ? r->err_text : "", r->err_text ? r->err_len : 0);
        break;
    case MR_END:
        begin(e, TR_END, 1, r->t);
        end(pk, r->res);
        break;
    case MR_RESTART:
        begin(e, TR_RESTART, 3, r->t);
        msgpack_pack_int(pk, r->bot);
        msgpack_pack_uint32(pk, r->game);
        msgpack_pack_uint32(pk, r->seating);
        break;
    }
}

void tr_enc_digest(tr_enc *e, const uint8_t digest[32])
{
    begin(e, TR_DIGEST, 2, 0);
    pack_str(&e->pk, "sha256");
    msgpack_pack_bin_with_body(&e->pk, digest, 32);
}

void tr_enc_signature(tr_enc *e, const uint8_t pk[32], const uint8_t sig[64])
{
    begin(e, TR_SIGNATURE, 3, 0);
    pack_str(&e->pk, "ed25519");
    msgpack_pack_bin_with_body(&e->pk, pk, 32);
    msgpack_pack_bin_with_body(&e->pk, sig, 64);
}
