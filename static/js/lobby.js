// The lobby page: show only the options of the chosen profile (or, for a
// ranked table, the category, the stake and, with a stake, how it is
// settled and at what rate), copy invite
// links, and keep the table lists live. Without JavaScript the page still
// works: every option is shown (the server ignores other profiles' options)
// and the lists are as fresh as the last page load.
import { ChatPanel } from "./chat/panel.js";
import { openSocket } from "./lib/socket.js";

{

  // --- The new table form ---------------------------------------------------

  function setUpProfileOptions() {
    var form = document.getElementById("table-form");
    if (!form) return;
    var select = form.elements.namedItem("profile");
    if (!select) return;
    var ranked = form.elements.namedItem("ranked");
    var blocks = form.querySelectorAll("[data-profile]");
    // A ranked table plays its category's preset: the category and the stake
    // replace the profile and its options.
    var rankedBlocks = form.querySelectorAll("[data-ranked]");
    // How a stake is settled means something only with a stake; the rate
    // only when it is settled by score.
    var stake = form.elements.namedItem("stake");
    var settlement = form.elements.namedItem("settlement");
    var stakeBlocks = form.querySelectorAll("[data-needs-stake]");
    var scoreBlocks = form.querySelectorAll("[data-by-score]");

    function show(block, shown) {
      block.hidden = !shown;
      // A disabled fieldset's controls are not submitted.
      if (block.tagName === "FIELDSET") block.disabled = !shown;
    }

    function update() {
      var isRanked = Boolean(ranked && ranked.checked);
      rankedBlocks.forEach(function (block) {
        show(block, (block.getAttribute("data-ranked") === "yes") === isRanked);
      });
      blocks.forEach(function (block) {
        show(block, !isRanked && block.getAttribute("data-profile") === select.value);
      });
      var staked = Boolean(stake && stake.value && stake.value !== "0");
      var byScore = staked && Boolean(settlement && settlement.value === "score");
      stakeBlocks.forEach(function (block) {
        showControls(block, staked);
      });
      scoreBlocks.forEach(function (block) {
        showControls(block, byScore);
      });
    }

    function showControls(block, shown) {
      // Hidden controls are not submitted: the server takes the defaults.
      block.hidden = !shown;
      block.querySelectorAll("select, input").forEach(function (control) {
        control.disabled = !shown;
      });
    }

    select.addEventListener("change", update);
    if (ranked) ranked.addEventListener("change", update);
    if (stake) stake.addEventListener("change", update);
    if (settlement) settlement.addEventListener("change", update);
    update();
  }

  // --- Invite links ---------------------------------------------------------

  function setUpCopyButtons(root) {
    if (!navigator.clipboard) return;
    root.querySelectorAll("[data-copy]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var input = document.getElementById(button.getAttribute("data-copy"));
        if (!input) return;
        var label = button.textContent;
        navigator.clipboard.writeText(input.value).then(function () {
          button.textContent = button.getAttribute("data-copied") || label;
          setTimeout(function () {
            button.textContent = label;
          }, 1500);
        });
      });
    });
  }

  // --- Live table lists -----------------------------------------------------

  function setUpLiveLists() {
    var lists = document.getElementById("lobby-tables");
    if (!lists || !("WebSocket" in window)) return;
    var url = lists.getAttribute("data-url");
    var fetching = false;
    var again = false;

    var pending = null;

    function busy() {
      // Someone is choosing a bot or copying a link in the lists.
      var active = document.activeElement;
      return lists.contains(active) && active.tagName !== "BUTTON";
    }

    function swap(html) {
      if (busy()) {
        pending = html;
        return;
      }
      pending = null;
      lists.innerHTML = html;
      setUpCopyButtons(lists);
    }

    lists.addEventListener("focusout", function () {
      // Apply a held-back update once focus has left the lists.
      setTimeout(function () {
        if (pending !== null && !busy()) swap(pending);
      }, 0);
    });

    function refresh() {
      // One request at a time; changes that arrive meanwhile cause one more.
      if (fetching) {
        again = true;
        return;
      }
      fetching = true;
      fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
        .then(function (response) {
          if (!response.ok) throw new Error("HTTP " + response.status);
          return response.text();
        })
        .then(swap)
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

    // The lobby's chat shares the socket (docs/chat.md).
    var chatRoot = document.getElementById("lobby-chat");
    var chat = null;
    var socket = openSocket("/ws/lobby/", {
      message: function (message) {
        if (chat && chat.receive(message)) return;
        if (message.type === "lobby") refresh();
      },
      open: function (reopened) {
        if (reopened) refresh();
      },
      // Shown on the panel, so that what waits for a connection can tell.
      status: function (state) {
        if (chatRoot) chatRoot.dataset.socket = state;
      },
    });
    if (chatRoot) {
      chat = new ChatPanel(chatRoot, {
        send: function (message) {
          return socket.send(message);
        },
        me: Number(chatRoot.dataset.me) || null,
      });
    }
  }

  function start() {
    setUpProfileOptions();
    setUpCopyButtons(document);
    setUpLiveLists();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}
