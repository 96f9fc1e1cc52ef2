// The table page's entry module: the live game, or the seats of a table
// still waiting for its players.

import { startTable } from "./table/main.js";
import { waitForStart } from "./table/waiting.js";

const configNode = document.getElementById("table-config");
if (configNode) {
  const config = JSON.parse(configNode.textContent);
  if (config.game) {
    const snapshot = JSON.parse(document.getElementById("table-snapshot").textContent);
    startTable(config, snapshot);
  } else if (config.state_url) {
    waitForStart(config);
  }
}
