// "Your turn", as a browser notification when the table's tab is hidden
// and the player allowed notifications (the bell in the bar, wired by
// me.js). The tag keeps one notification per table.

import { fmt, gettext } from "../lib/i18n.js";
import { notifyHidden } from "../social/notifications.js";

export function notifyTurn(table) {
  notifyHidden(gettext("Your turn"), fmt(gettext("Table %s: the move is yours."), table), `turn-${table}`);
}
