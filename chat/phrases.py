"""The quick phrases: a fixed set of keys a phone sends with one tap. A
message stores the key; each reader sees it in their own language (the page
translates it, static/js/chat/phrases.js, with the same English texts)."""

from django.utils.translation import gettext_lazy as _

PHRASES = {
    "hi": _("Hi!"),
    "good_luck": _("Good luck!"),
    "well_played": _("Well played!"),
    "thanks": _("Thanks!"),
    "sorry": _("Sorry!"),
    "oops": _("Oops!"),
    "nice_trick": _("Nice trick!"),
    "bye": _("Bye!"),
}
