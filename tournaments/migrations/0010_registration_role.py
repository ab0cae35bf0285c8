"""Registration roles (issue 31): `role` is player, fill-in or reserve. The old flag
`is_substitute` meant fill-in; it stays as a read-only column the database computes from the
role (role = "fill-in"), so filters, exports and the API keep reading it. Standings rows get
the role of their registration (for the marks), plans what they were made from, sessions when
they were seated (a later registration has no seat). Reversible: going back, a reserve
becomes a substitute again (the nearest of the old flag)."""

from django.db import migrations, models


def flag_to_role(apps, schema_editor):
    Registration = apps.get_model("tournaments", "Registration")
    StandingRow = apps.get_model("tournaments", "StandingRow")
    Registration.objects.filter(is_substitute=True).update(role="fill-in")
    StandingRow.objects.filter(is_substitute=True).update(role="fill-in")


def role_to_flag(apps, schema_editor):
    Registration = apps.get_model("tournaments", "Registration")
    Registration.objects.exclude(role="player").update(is_substitute=True)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0009_standings_stale_for_chombos"),
    ]

    operations = [
        migrations.AddField(
            model_name="registration",
            name="role",
            field=models.CharField(
                choices=[("player", "Player"), ("fill-in", "Fill-in"), ("reserve", "Reserve")],
                default="player",
                max_length=10,
            ),
        ),
        migrations.AddField(
            model_name="standingrow",
            name="role",
            field=models.CharField(db_default="player", default="player", max_length=10),
        ),
        migrations.RunPython(flag_to_role, role_to_flag),
        migrations.RemoveField(model_name="registration", name="is_substitute"),
        migrations.AddField(
            model_name="registration",
            name="is_substitute",
            field=models.GeneratedField(
                db_persist=True,
                expression=models.Q(("role", "fill-in")),
                output_field=models.BooleanField(),
            ),
        ),
        migrations.AddField(
            model_name="seatingplan",
            name="basis",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="session",
            name="seated_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
