"""Bans move from the games to the accounts: the table and its rows stay,
renamed; the ban permission's content type moves with the model, so the
groups and users that hold it keep it."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def move_content_type(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    moved = ContentType.objects.filter(app_label="games", model="ban")
    if not ContentType.objects.filter(app_label="accounts", model="ban").exists():
        moved.update(app_label="accounts")


def move_content_type_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="accounts", model="ban").update(
        app_label="games"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_profile_time_zone"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0013_game_presence"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Ban",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("reason", models.TextField(verbose_name="reason")),
                        (
                            "created_at",
                            models.DateTimeField(
                                default=django.utils.timezone.now, verbose_name="when"
                            ),
                        ),
                        (
                            "by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="by",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="bans",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="player",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "ban",
                        "verbose_name_plural": "bans",
                        "ordering": ["-created_at", "-id"],
                        "permissions": [("ban_user", "Can ban players")],
                        "db_table": "games_ban",
                    },
                ),
            ],
            database_operations=[],
        ),
        # The table takes the accounts' name.
        migrations.AlterModelTable(name="ban", table=None),
        migrations.RunPython(move_content_type, move_content_type_back),
    ]
