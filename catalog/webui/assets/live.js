// icebeam web UI: follows a table live. It polls the UI's own JSON endpoint
// for snapshots committed after the newest one on the page and adds them to
// the top of the timeline. Everything else on the page is plain HTML, and
// navigation is links, so the page works without this script. It builds
// rows with textContent only, never HTML strings.
(function () {
  "use strict";
  var status = document.getElementById("live-status");
  var body = document.getElementById("snapshots");
  if (!status || !body) return;
  var api = status.getAttribute("data-api");
  var after = status.getAttribute("data-after") || "";
  var poll = parseInt(status.getAttribute("data-poll-ms"), 10) || 3000;
  var seen = {};
  Array.prototype.forEach.call(body.querySelectorAll("tr[data-id]"), function (tr) {
    seen[tr.getAttribute("data-id")] = true;
  });

  function cell(tag, text, cls) {
    var c = document.createElement(tag);
    if (cls) c.className = cls;
    if (text !== undefined && text !== null) c.textContent = String(text);
    return c;
  }

  function row(s) {
    var tr = document.createElement("tr");
    tr.setAttribute("data-id", s.id);
    tr.className = "new";
    tr.appendChild(cell("td", s.time));
    var th = cell("th");
    th.setAttribute("scope", "row");
    var a = document.createElement("a");
    a.href = "?snapshot=" + encodeURIComponent(s.id) + "#preview";
    a.appendChild(cell("code", s.id));
    th.appendChild(a);
    tr.appendChild(th);
    tr.appendChild(cell("td", s.operation));
    ["added_rows", "deleted_rows", "added_files", "removed_files", "added_delete_files", "removed_delete_files"].forEach(function (k) {
      tr.appendChild(cell("td", s[k], "n"));
    });
    tr.appendChild(cell("td", s.change_rows));
    var c = cell("td");
    c.appendChild(cell("code", s.commit_id));
    tr.appendChild(c);
    tr.appendChild(cell("td", s.writer));
    tr.appendChild(cell("td", s.latency, "n"));
    tr.appendChild(cell("td", s.refs));
    return tr;
  }

  function update(data) {
    var added = 0;
    (data.snapshots || []).forEach(function (s) {
      after = s.id;
      if (seen[s.id]) return;
      seen[s.id] = true;
      var empty = body.querySelector("tr.empty");
      if (empty) empty.remove();
      body.insertBefore(row(s), body.firstChild);
      added++;
    });
    if (added > 0) {
      var current = document.getElementById("current");
      if (current) current.textContent = after;
      var count = document.getElementById("snapshot-count");
      if (count) count.textContent = String(body.querySelectorAll("tr[data-id]").length);
      status.textContent = added + (added === 1 ? " new snapshot" : " new snapshots") + " at " + new Date().toLocaleTimeString() + ".";
    }
  }

  function tick() {
    var url = api + (after ? "?after=" + encodeURIComponent(after) : "");
    fetch(url, { headers: { "Accept": "application/json" }, credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      })
      .then(update)
      .catch(function (e) {
        // Said once, not at every retry: the status is read out aloud.
        var msg = "Live updates paused (" + e.message + "); retrying.";
        if (status.textContent !== msg) status.textContent = msg;
      })
      .then(function () { setTimeout(tick, document.hidden ? poll * 4 : poll); });
  }
  setTimeout(tick, poll);
})();
