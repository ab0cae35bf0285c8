"""Player, AuditEntry, IdempotencyRecord and ApiToken move from `club` to `core` (issue 14).

Only Django's migration state moves: the tables were created by club's migrations and keep
their names (`Meta.db_table`). The content types are renamed so permissions survive.
"""


import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


CORE_MODELS = ["player", "auditentry", "idempotencyrecord", "apitoken"]


def content_types_to(old_label: str, new_label: str):
    """Rename the content types of the moved models, so their admin permissions (and the admin
    log entries) stay attached: group and user permissions point at the content type's id."""

    def rename(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        db = schema_editor.connection.alias
        for model in CORE_MODELS:
            old = ContentType.objects.using(db).filter(app_label=old_label, model=model).first()
            if old is None:
                continue  # a fresh database: post_migrate creates them under the new label
            if ContentType.objects.using(db).filter(app_label=new_label, model=model).exists():
                continue  # already there (created by a run of post_migrate): keep both
            old.app_label = new_label
            old.save(update_fields=["app_label"])

    return rename


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("club", "0006_api_tokens"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # State only: the tables keep their names (issue 14); nothing in the database changes.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='ApiToken',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('key_hash', models.CharField(max_length=64, unique=True)),
                        ('prefix', models.CharField(max_length=8)),
                        ('name', models.CharField(blank=True, max_length=100)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('expires_at', models.DateTimeField()),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'club_apitoken',
                        'ordering': ['-created_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='AuditEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('action', models.CharField(max_length=60)),
                        ('object_type', models.CharField(max_length=60)),
                        ('object_id', models.CharField(blank=True, max_length=40)),
                        ('tournament_id', models.BigIntegerField(blank=True, db_index=True, null=True)),
                        ('game_id', models.BigIntegerField(blank=True, db_index=True, null=True)),
                        ('club_id', models.BigIntegerField(blank=True, db_index=True, null=True)),
                        ('before', models.JSONField(blank=True, null=True)),
                        ('after', models.JSONField(blank=True, null=True)),
                        ('reason', models.TextField(blank=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True, db_index=True)),
                        ('actor', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name_plural': 'audit entries',
                        'db_table': 'club_auditentry',
                        'ordering': ['created_at', 'id'],
                    },
                ),
                migrations.CreateModel(
                    name='Player',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('first_name', models.CharField(max_length=100)),
                        ('last_name', models.CharField(max_length=100)),
                        ('ema_number', models.CharField(blank=True, max_length=8, null=True, unique=True, validators=[django.core.validators.RegexValidator('^\\d{8}$', 'An EMA number has exactly 8 digits.')])),
                        ('country', models.CharField(blank=True, max_length=2, validators=[django.core.validators.RegexValidator('^[A-Z]{2}$', 'Use the two-letter ISO 3166 country code, e.g. DE, FR, GB.')])),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('user', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='player', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'club_player',
                        'ordering': ['last_name', 'first_name', 'id'],
                    },
                ),
                migrations.CreateModel(
                    name='IdempotencyRecord',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('key', models.CharField(max_length=200)),
                        ('method', models.CharField(max_length=10)),
                        ('path', models.CharField(max_length=300)),
                        ('request_hash', models.CharField(max_length=64)),
                        ('status_code', models.PositiveSmallIntegerField()),
                        ('response_body', models.JSONField(null=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'club_idempotencyrecord',
                        'constraints': [models.UniqueConstraint(fields=('user', 'key'), name='unique_idempotency_key')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_to("club", "core"), content_types_to("core", "club")),
    ]
