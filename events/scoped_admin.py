"""The organisers' admin, scoped, for every event app: each organiser sees and changes only the
events they run (a ladder, a tournament), and anything else is refused (403). An event app
subclasses ScopedAdmin once with its event model, its lookup and its error; its forfeit action
is ForfeitAction."""

from functools import reduce
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import BadRequest, PermissionDenied, ValidationError
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse

from games.forms import WHOLE_NUMBER_FIELDS

from .errors import EventError


def organised(event_model, user):
    """The events of `event_model` (an event app's model with `organisers`) `user` may run."""
    if not (user.is_active and user.is_staff):
        return event_model.objects.none()
    if user.is_superuser:
        return event_model.objects.all()
    return event_model.objects.filter(organisers=user)


class OrganisedEventFilter(admin.RelatedFieldListFilter):
    """The event filter offers only the events the user runs (Django's own lists every event,
    and so would name other organisers' events)."""

    def field_choices(self, field, request, model_admin):
        return field.get_choices(
            include_blank=False,
            limit_choices_to={"pk__in": organised(field.related_model, request.user)},
            ordering=self.field_admin_ordering(field, request, model_admin),
        )


class ScopedAdmin(admin.ModelAdmin):
    """Objects of the events the user organises; anything else is refused (403).

    An event app subclasses it once with its `event_model`, `refusal` and the usual
    `event_lookup`; each admin of a model under the event may give its own `event_lookup`.
    """

    formfield_overrides = WHOLE_NUMBER_FIELDS  # an organiser's numbers in the digits 0 to 9
    event_model: Any = None  # the app's event model
    event_lookup = ""  # from the model to its event ("pk" on the event's own admin)
    refusal: type[EventError] = EventError  # the app's own, for what cannot be done, its words in .message

    def event_of(self, obj):
        if isinstance(obj, self.event_model):
            return obj
        return reduce(getattr, self.event_lookup.split("__"), obj)

    def organised_events(self, user):
        return organised(self.event_model, user)

    def get_queryset(self, request):
        return super().get_queryset(request).filter(**{f"{self.event_lookup}__in": self.organised_events(request.user)})

    def get_object(self, request, object_id, from_field=None):
        # Look beyond the user's own events so another event's object is refused, not "missing".
        field = self.model._meta.pk if from_field is None else self.model._meta.get_field(from_field)
        try:
            return self.model._default_manager.get(**{field.name: field.to_python(object_id)})
        except (self.model.DoesNotExist, ValidationError, ValueError):
            return None

    def _may_run(self, request, obj):
        events = self.organised_events(request.user)
        return events.exists() if obj is None else events.filter(pk=self.event_of(obj).pk).exists()

    def has_module_permission(self, request):
        return self.organised_events(request.user).exists()

    def has_view_permission(self, request, obj=None):
        return self._may_run(request, obj)

    def has_change_permission(self, request, obj=None):
        return self._may_run(request, obj)

    def has_add_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def response_action(self, request, queryset):
        # An action posted for objects outside the user's events is refused outright.
        selected = request.POST.getlist(ACTION_CHECKBOX_NAME)
        if not all(pk.isascii() and pk.isdigit() and len(pk) < 19 for pk in selected):
            raise BadRequest("The rows chosen are not ids of rows.")
        if selected and not request.POST.get("select_across") == "1":
            allowed = self.get_queryset(request).filter(pk__in=selected).count()
            if allowed != len(set(selected)):
                raise PermissionDenied
        return super().response_action(request, queryset)

    def _each(self, request, queryset, operation, done):
        """`operation` on each object chosen, each refusal said and the rest done and logged as `done`."""
        for item in queryset:
            try:
                operation(item)
            except self.refusal as exc:
                self.message_user(request, f"{item}: {exc.message}", messages.ERROR)
            else:
                self.log_change(request, item, done)
                self.message_user(request, f"{item}: {done.lower()}.")

    def _one(self, request, obj, operation, note):
        """`operation()` on the one object chosen: its refusal said, or done and logged as `note`."""
        try:
            operation()
        except self.refusal as exc:
            self.message_user(request, exc.message, messages.ERROR)
        else:
            self.log_change(request, obj, note)
            self.message_user(request, note)

    def _done(self, request, event, note):
        """After an organiser's page did `note` on `event`: logged, said, and the page again."""
        self.log_change(request, event, note)
        messages.success(request, note)
        return HttpResponseRedirect(request.path)

    def _form_page(self, request, queryset, title, form, action, intro=""):
        return TemplateResponse(
            request,
            "events/admin/action_form.html",
            {
                **self.admin_site.each_context(request),
                "title": title,
                "form": form,
                "intro": intro,
                "objects": queryset,
                "action": action,
                "opts": self.model._meta,
                "action_checkbox_name": ACTION_CHECKBOX_NAME,
            },
        )


class ScopedInline(admin.TabularInline):
    """Shown, read-only, to whoever may view the parent object: organisers are scoped by
    ScopedAdmin and hold no model permissions, which Django's inlines would otherwise require."""

    formfield_overrides = WHOLE_NUMBER_FIELDS

    def has_view_permission(self, request, obj=None):
        return self.admin_site.get_model_admin(self.parent_model).has_view_permission(request, obj)


class EventPermissions:
    """The event's own admin (mixed in before ScopedAdmin): a superuser, or whoever holds the add
    permission, creates events; only a superuser deletes one."""

    event_lookup = "pk"

    def has_add_permission(self, request, obj=None):
        opts = self.model._meta
        return request.user.is_superuser or request.user.has_perm(f"{opts.app_label}.add_{opts.model_name}")

    def has_module_permission(self, request):
        return super().has_module_permission(request) or self.has_add_permission(request)

    # Whoever creates events goes on to the new one's page ("Save and continue editing") and sees
    # the (empty) list; each event itself is still only its organisers'.
    def has_view_permission(self, request, obj=None):
        return super().has_view_permission(request, obj) or (obj is None and self.has_add_permission(request))

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) or (obj is None and self.has_add_permission(request))

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser
