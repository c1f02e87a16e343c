/* live.js — a running tournament's page kept up to date: it subscribes to
 * /api/t/ID/events (Server-Sent Events) and, on each result, fetches the
 * standings (JSON) and redraws their table; progress updates the counts.
 * Without JavaScript the page is the same, as of when it was loaded. */
(function () {
  "use strict";
  var root = document.querySelector("[data-live]");
  if (!root || !window.EventSource) return;
  var tid = root.getAttribute("data-live");
  var status = document.getElementById("live-status");
  var body = document.querySelector("#standings tbody");
  function cell(tr, text, num) {
    var td = document.createElement("td");
    td.textContent = text;           /* text, never HTML: names come from bots */
    if (num) td.className = "num";
    tr.appendChild(td);
    return td;
  }
  function redraw() {
    fetch("/api/t/" + tid + "/standings").then(function (r) { return r.json(); }).then(function (d) {
      var rows = Array.isArray(d) ? d : d.entrants;
      if (!body || !rows) return;
      /* the entrants' links, by name, from the rows being replaced (the
         standings JSON has no entrant index to build them from) */
      var links = {};
      Array.prototype.forEach.call(body.querySelectorAll("td a[href]"), function (a) {
        links[a.textContent] = a.getAttribute("href");
      });
      while (body.firstChild) body.removeChild(body.firstChild);
      rows.forEach(function (s) {
        var tr = document.createElement("tr");
        var th = document.createElement("th");
        th.scope = "row";
        th.textContent = s.rank;
        tr.appendChild(th);
        var name = cell(tr, links[s.name] ? "" : s.name);
        if (links[s.name]) {
          var a = document.createElement("a");
          a.href = links[s.name];
          a.textContent = s.name;
          name.appendChild(a);
        }
        if (s.forfeited) {
          var f = document.createElement("span");
          f.className = "bad";
          f.textContent = "(forfeited)";
          name.appendChild(document.createTextNode(" "));
          name.appendChild(f);
        }
        cell(tr, s.played, true);
        cell(tr, s.points.toFixed(1), true);
        cell(tr, s.score, true);
        cell(tr, s.wins, true);
        cell(tr, s.penalties, true);
        if (s.reached !== undefined) cell(tr, s.reached || "");
        body.appendChild(tr);
      });
    }).catch(function () {});
  }
  var es = new EventSource("/api/t/" + tid + "/events");
  es.addEventListener("progress", function (e) {
    var p = JSON.parse(e.data);
    if (status) status.textContent = "live: " + p.done + " done, " + p.leased + " playing, " + p.pending +
      " waiting, " + p["void"] + " void (round " + p.round + ", " + p.state + ")";
    Object.keys(p).forEach(function (k) {
      var el = document.querySelector('[data-count="' + k + '"]');
      if (el) el.textContent = p[k];
    });
    if (p.state === "done") es.close();
  });
  es.addEventListener("result", redraw);
  // the tournament is over: the server's last word, no reconnecting
  es.addEventListener("end", function () { es.close(); });
  es.onerror = function () { if (status) status.textContent = "live updates paused (reconnecting)"; };
})();
