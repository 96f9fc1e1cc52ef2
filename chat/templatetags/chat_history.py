"""A finished game's chat on its replay page, so the games' pages need not
read the chat (it sits above them)."""

from django import template
from django.utils.html import json_script

from chat import selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def game_chat_script(context, game, element_id: str):
    """Both rooms of ``game`` once it is over, less whom the reader hides,
    as a JSON script element for the page's script to read."""
    return json_script(selectors.game_chat(game, context["request"].user), element_id)
