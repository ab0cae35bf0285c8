"""Player, AuditEntry, IdempotencyRecord and ApiToken now belong to `core` (issue 14): club's
state forgets them; their tables stay as they are (core.models sets `db_table`).
"""


import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('club', '0006_api_tokens'),
        ('core', '0001_shared_models_from_club'),
        # Their fields point at core.Player first, then club's state forgets the model.
        ('scoring', '0005_player_in_core'),
        ('tournaments', '0005_player_in_core'),
    ]

    operations = [
        # State only: the tables keep their names (issue 14); nothing in the database changes.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='auditentry',
                    name='actor',
                ),
                migrations.RemoveField(
                    model_name='idempotencyrecord',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='player',
                    name='user',
                ),
                migrations.AlterField(
                    model_name='onlinename',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='online_names', to='core.player'),
                ),
                migrations.AlterField(
                    model_name='membership',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to='core.player'),
                ),
                migrations.AlterField(
                    model_name='rating',
                    name='player',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='rating', to='core.player'),
                ),
                migrations.AlterField(
                    model_name='ratingchange',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_history', to='core.player'),
                ),
                migrations.AlterField(
                    model_name='club',
                    name='members',
                    field=models.ManyToManyField(related_name='clubs', through='club.Membership', to='core.player'),
                ),
                migrations.DeleteModel(
                    name='ApiToken',
                ),
                migrations.DeleteModel(
                    name='AuditEntry',
                ),
                migrations.DeleteModel(
                    name='IdempotencyRecord',
                ),
                migrations.DeleteModel(
                    name='Player',
                ),
            ],
            database_operations=[],
        ),
    ]
