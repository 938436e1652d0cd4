"""Who may create events became a setting (EVENT_CREATION), "invited" by default: the accounts given the
"Can add event" permission. Every account that organises an event already, and every staff account, is
given it here, so nobody who created events before loses the right."""

from django.db import migrations


def grant(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    User = apps.get_model("auth", "User")
    EventRole = apps.get_model("tournament", "EventRole")
    # On a new database the permissions are made after the migrations (post_migrate): made here the same way.
    event_type, _ = ContentType.objects.get_or_create(app_label="tournament", model="event")
    add_event, _ = Permission.objects.get_or_create(
        codename="add_event", content_type=event_type, defaults={"name": "Can add event"}
    )
    organisers = EventRole.objects.filter(role="organiser").values_list("user_id", flat=True)
    users = User.objects.filter(pk__in=organisers) | User.objects.filter(is_staff=True)
    for user in users.distinct():
        user.user_permissions.add(add_event)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0018_event_initial_colour_kept"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
