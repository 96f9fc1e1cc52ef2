// A page's live WebSocket: it pings to stay open through proxies, reconnects
// with exponential backoff (with jitter, so clients do not all return at
// once), and says when it has reopened, since changes made meanwhile were
// missed. Used by the lobby and the tournament pages.
(function () {
  "use strict";

  // handlers.message(message): every JSON message received;
  // handlers.reopened(): after a reconnection;
  // handlers.finalCodes: close codes after which trying again cannot help.
  window.pulkaLiveSocket = function (path, handlers) {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var address = scheme + window.location.host + path;
    var finalCodes = handlers.finalCodes || [];
    var delay = 1000;
    var maxDelay = 30000;
    var pingTimer = null;
    var opened = false;

    function connect() {
      var socket = new WebSocket(address);

      socket.addEventListener("open", function () {
        delay = 1000;
        if (opened && handlers.reopened) handlers.reopened();
        opened = true;
        pingTimer = setInterval(function () {
          if (socket.readyState === WebSocket.OPEN) {
            socket.send(JSON.stringify({ type: "ping" }));
          }
        }, 25000);
      });

      socket.addEventListener("message", function (event) {
        var message;
        try {
          message = JSON.parse(event.data);
        } catch (error) {
          return;
        }
        if (message) handlers.message(message);
      });

      socket.addEventListener("close", function (event) {
        clearInterval(pingTimer);
        if (finalCodes.indexOf(event.code) !== -1) return;
        var wait = delay / 2 + (Math.random() * delay) / 2;
        delay = Math.min(delay * 2, maxDelay);
        setTimeout(connect, wait);
      });
    }

    connect();
  };
})();
