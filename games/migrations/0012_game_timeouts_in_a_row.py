from django.db import migrations, models


def count_timeouts(apps, schema_editor):
    """Games in progress get their seats' timeouts in a row from their
    events; finished games are never played again and keep the empty list."""
    Game = apps.get_model("games", "Game")
    GameEvent = apps.get_model("games", "GameEvent")
    for game in Game.objects.filter(status="playing").iterator():
        counts = [0] * game.table.seats.count()
        ended: set[int] = set()
        actions = GameEvent.objects.filter(game=game, kind="action").order_by(
            "-version"
        )
        for seat, cause in actions.values_list("seat", "cause").iterator():
            if seat in ended or seat is None:
                continue
            if cause == "timeout":
                counts[seat] += 1
            else:
                ended.add(seat)
            if len(ended) == len(counts):
                break
        game.timeouts_in_a_row = counts
        game.save(update_fields=["timeouts_in_a_row"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_bot_levels"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="timeouts_in_a_row",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(count_timeouts, migrations.RunPython.noop),
    ]
