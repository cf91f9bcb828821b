"""Where an event stands and what its organiser does next, on the event's own admin page.

The protocol every event app's admin follows (ladders, tournaments, a club night's): the admin
mixes in ProgressPage and gives

- `progress(event) -> Progress`: the state in words and the next actions, first the one to do now;
- `perform(request, event, name) -> str`: does the action `name` through the app's services and
  returns the note to say (the app's refusal, `self.refusal`, is said instead, nothing changed);
- optionally `add_entrants(request, event, emails) -> str`, when `Progress.takes_entrants`: the
  addresses pasted on the page (or the one member picked there by name), entered; the note to say.

The change page (templates/events/admin/change_form.html) shows the state and a button for each
action, above the event's settings; every button posts to `<pk>/act/`, which checks the
organiser, performs and comes back to the page. Nothing an organiser needs is only a bulk action.
"""

from dataclasses import dataclass

from django.apps import apps
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseNotAllowed, HttpResponseRedirect
from django.urls import path, reverse

from accounts import directory

from .forms import AddEntrantsForm


@dataclass(frozen=True)
class OrganisedEvent:
    """A line of the admin index's "Your events": the event, its state and its page."""

    event: object
    kind: str
    state: str
    url: str


def organised_events(admin_site, user):
    """Every event `user` runs, of every event app whose admin is a ProgressPage, with its state;
    and the links to start a new one: [(words, add url)] for each kind the user may create."""
    events, new = [], []
    for model in apps.get_models():
        if not admin_site.is_registered(model):
            continue
        model_admin = admin_site.get_model_admin(model)
        if not isinstance(model_admin, ProgressPage):
            continue
        for event in model_admin.organised_events(user):
            kind = getattr(event, "noun", model._meta.verbose_name)
            events.append(
                OrganisedEvent(event, kind, model_admin.progress(event).state, model_admin.change_page(event))
            )
        if model_admin.may_create(user):
            add = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_add")
            links = model_admin.new_event_links or ((f"a {model._meta.verbose_name}", ""),)
            new += [(words, add + query) for words, query in links]
    return events, new


@dataclass(frozen=True)
class NextAction:
    name: str  # posted by its button; what `perform` is asked to do
    label: str  # the button's words, a verb first: "Start the league"
    explain: str = ""  # one sentence beside it: what happens when pressed
    url: str = ""  # a page to go to instead of posting (e.g. a form of its own)


@dataclass(frozen=True)
class Progress:
    state: str  # where the event stands, in a few words: "Taking entries: 3 entered"
    explain: str = ""  # what it waits for, in a sentence
    actions: tuple[NextAction, ...] = ()  # the first is the one to do now
    takes_entrants: bool = False  # the page offers its box of addresses


def _member_named(text):
    """The one member playing under the name `text` (the challenge form's search); ValidationError,
    saying why, for none or several: the organiser then writes the whole name or the address."""
    found = directory.members_named(text)
    if len(found) == 1:
        return found[0]
    if not found:
        raise ValidationError(f'No member plays under the name "{text.strip()}": paste their address instead.')
    shown = ", ".join(f"{m} ({directory.masked_email(m.email)})" for m in found[: directory.MOST])
    raise ValidationError(f"{len(found)} members go by that name: {shown}. Write the whole name, or paste the address.")


class ProgressPage:
    """Mixed into an event's ScopedAdmin (before it): the state and next actions on its change page,
    and "Save" of a new event leading to that page."""

    # The admin index's "start one" links: (the words, the add form's query string) for each kind.
    new_event_links: tuple[tuple[str, str], ...] = ()

    def progress(self, event) -> Progress:
        raise NotImplementedError

    def perform(self, request, event, name) -> str:
        raise NotImplementedError

    def add_entrants(self, request, event, emails) -> str:
        raise NotImplementedError

    def may_create(self, user):
        opts = self.model._meta  # type: ignore[attr-defined]
        return user.is_superuser or user.has_perm(f"{opts.app_label}.add_{opts.model_name}")

    def progress_urls(self):
        opts = self.model._meta  # type: ignore[attr-defined]
        view = self.admin_site.admin_view(self.act_view)  # type: ignore[attr-defined]
        return [path("<int:pk>/act/", view, name=f"{opts.app_label}_{opts.model_name}_act")]

    def change_page(self, event):
        opts = self.model._meta  # type: ignore[attr-defined]
        return reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[event.pk])

    def act_view(self, request, pk):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        event = self.get_object(request, pk)  # type: ignore[attr-defined]
        if event is None or not self.has_change_permission(request, event):  # type: ignore[attr-defined]
            raise PermissionDenied
        name = request.POST.get("action", "")
        progress = self.progress(event)
        try:
            if name == "add_entrants" and progress.takes_entrants:
                form = AddEntrantsForm(request.POST, prefix="add")
                if not form.is_valid():
                    raise ValidationError("Paste one address or more: nobody was entered.")
                note = self.add_entrants(request, event, form.cleaned_data["emails"])
            elif name == "add_member" and progress.takes_entrants:
                note = self.add_entrants(request, event, _member_named(request.POST.get("member", "")).email)
            elif name in {a.name for a in progress.actions if not a.url}:
                note = self.perform(request, event, name)
            else:
                # A button of a page that has moved on (pressed twice, or in another tab).
                messages.error(request, "That is no longer a next step of this event: nothing was changed.")
                return HttpResponseRedirect(self.change_page(event))
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        except self.refusal as exc:  # type: ignore[attr-defined]
            messages.error(request, exc.message)
        else:
            self.log_change(request, event, note)  # type: ignore[attr-defined]
            messages.success(request, note)
        return HttpResponseRedirect(self.change_page(event))

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None and obj.pk:
            context["progress"] = self.progress(obj)
            context["act_url"] = reverse(
                f"admin:{self.model._meta.app_label}_{self.model._meta.model_name}_act",  # type: ignore[attr-defined]
                args=[obj.pk],
            )
            context["add_entrants_form"] = AddEntrantsForm(prefix="add")
        response = super().render_change_form(request, context, add, change, form_url, obj)  # type: ignore[misc]
        response.template_name = "events/admin/change_form.html"  # Django's, with the state above
        return response

    def response_add(self, request, obj, post_url_continue=None):
        # A new event's next step is on its own page (add entrants, start): go there, not to the list.
        if "_addanother" not in request.POST and "_popup" not in request.POST:
            messages.success(request, f"Created {obj}. Its next step is below.")
            return HttpResponseRedirect(self.change_page(obj))
        return super().response_add(request, obj, post_url_continue)  # type: ignore[misc]
