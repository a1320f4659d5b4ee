"""A small HTML form reader for tests: what a browser would submit from a page's forms."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Form:
    """One <form>: its action, the values it submits, and its submit buttons."""

    action: str
    method: str
    attrs: dict[str, str]
    values: dict[str, str] = field(default_factory=dict)
    buttons: list[dict[str, str]] = field(default_factory=list)
    selects: dict[str, list[str]] = field(default_factory=dict)

    def data(self, button: dict[str, str] | None = None, **overrides: str) -> dict[str, str]:
        """The form data a browser sends when ``button`` is pressed, with ``overrides`` typed in."""
        sent = dict(self.values)
        if button is not None and button.get("name"):
            sent[button["name"]] = button.get("value", "")
        sent.update(overrides)
        return sent

    def button(self, **attrs: str) -> dict[str, str]:
        """The submit button whose attributes include ``attrs``."""
        for candidate in self.buttons:
            if all(candidate.get(k) == v for k, v in attrs.items()):
                return candidate
        raise AssertionError(f"no button with {attrs} in form {self.action}")


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.current: Form | None = None
        self.select: str | None = None
        self.textarea: str | None = None

    def handle_starttag(self, tag: str, attrs_list: list[tuple[str, str | None]]) -> None:
        attrs = {k: (v if v is not None else "") for k, v in attrs_list}
        if tag == "form":
            self.current = Form(attrs.get("action", ""), attrs.get("method", "get").lower(), attrs)
            self.forms.append(self.current)
            return
        form = self.current
        if form is None:
            return
        name = attrs.get("name")
        if tag == "input" and name:
            kind = attrs.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in attrs:
                    form.values[name] = attrs.get("value", "on")
            elif kind == "submit":
                form.buttons.append(attrs)
            elif kind != "file":
                form.values[name] = attrs.get("value", "")
        elif tag == "button":
            form.buttons.append(attrs)
        elif tag == "select" and name:
            self.select = name
            form.selects[name] = []
        elif tag == "option" and self.select:
            value = attrs.get("value", "")
            form.selects[self.select].append(value)
            if "selected" in attrs or self.select not in form.values:
                form.values[self.select] = value
        elif tag == "textarea" and name:
            self.textarea = name
            form.values[name] = ""

    def handle_data(self, data: str) -> None:
        if self.current is not None and self.textarea:
            self.current.values[self.textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None
        elif tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None


def read_forms(html: str) -> list[Form]:
    """Every form of the page, in order."""
    reader = _Reader()
    reader.feed(html)
    return reader.forms


def form_for(html: str, action_end: str) -> Form:
    """The first form whose action ends with ``action_end``."""
    for form in read_forms(html):
        if form.action.endswith(action_end):
            return form
    raise AssertionError(f"no form posting to ...{action_end} on the page")


def press(html: str, action_end: str, **attrs: str) -> dict[str, str]:
    """The data sent by pressing the button with ``attrs`` in a form posting to ``action_end``."""
    for form in read_forms(html):
        if form.action.endswith(action_end):
            for candidate in form.buttons:
                if all(candidate.get(k) == v for k, v in attrs.items()):
                    return form.data(candidate)
    raise AssertionError(f"no button with {attrs} in a form posting to ...{action_end}")
