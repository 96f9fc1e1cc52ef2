// The tournament page: keeps its live part (registration, standings,
// pairings) fresh over the tournament's WebSocket, and takes a signed-in
// player to their table when a round seats them. Without JavaScript the
// page still works; it is as fresh as its last load.
import { openSocket } from "../js/lib/socket.js";

{

  function readState(root) {
    var marker = root.querySelector(".live-state");
    return { table: (marker && marker.getAttribute("data-your-table")) || "" };
  }

  function start() {
    var live = document.getElementById("tournament-live");
    if (!live) return;
    var url = live.getAttribute("data-url");
    var shown = readState(live);
    var fetching = false;
    var again = false;

    function show(html) {
      var holder = document.createElement("div");
      holder.innerHTML = html;
      var next = readState(holder);
      // A table of yours that the page did not show before means a round
      // has just seated you: go and play. One already shown at load is
      // left alone, so coming back to this page does not bounce you away.
      if (next.table && next.table !== shown.table) {
        window.location.assign(next.table);
        return;
      }
      live.innerHTML = html;
      shown = next;
    }

    function refresh() {
      // One request at a time; changes that arrive meanwhile cause one more.
      if (fetching) {
        again = true;
        return;
      }
      fetching = true;
      fetch(url, {
        credentials: "same-origin",
        cache: "no-store",
        headers: { Accept: "text/html" },
      })
        .then(function (response) {
          if (!response.ok) throw new Error("HTTP " + response.status);
          return response.text();
        })
        .then(show)
        .catch(function () {
          // The next change or reconnect tries again.
        })
        .then(function () {
          fetching = false;
          if (again) {
            again = false;
            setTimeout(refresh, 250);
          }
        });
    }

    if (!("WebSocket" in window) || !window.fetch) return;
    openSocket(live.getAttribute("data-socket"), {
      message: function (message) {
        if (message.type === "tournament") refresh();
      },
      // Each open, the first included, fetches the live part: a round
      // seated between this page's load and its socket's joining would
      // otherwise go unnoticed until the next change.
      open: refresh,
    }, {
      // No such tournament, or a banned account: trying again will not help.
      finalCodes: [4404, 4403],
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}
