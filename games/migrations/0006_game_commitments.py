from django.db import migrations, models


def copy_commitments(apps, schema_editor):
    """Fill the new column of every existing game from its deal records."""
    Game = apps.get_model("games", "Game")
    DealRecord = apps.get_model("games", "DealRecord")
    found: dict[int, list[str]] = {}
    records = DealRecord.objects.order_by("game_id", "index").values_list(
        "game_id", "commitment"
    )
    for game_id, commitment in records.iterator():
        found.setdefault(game_id, []).append(commitment)
    for game_id, commitments in found.items():
        Game.objects.filter(pk=game_id).update(commitments=commitments)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_table_forfeit_after_timeouts_table_managed"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="commitments",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(copy_commitments, migrations.RunPython.noop),
    ]
