from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup
from wtforms import Form
from wtforms.fields.core import Field
from wtforms.meta import _MultiDictLike

SUBMIT_METHODS: set[str]

class FlaskForm(Form):
    # Without formdata: the submitted request's form and files; formdata=None: no form data.
    def __init__(
        self,
        formdata: _MultiDictLike | None = ...,
        *,
        obj: object | None = None,
        prefix: str = "",
        data: Mapping[str, Any] | None = None,
        meta: Mapping[str, Any] | None = None,
        **kwargs: object,
    ) -> None: ...
    def is_submitted(self) -> bool: ...
    def validate_on_submit(
        self, extra_validators: Mapping[str, Sequence[Any]] | None = None
    ) -> bool: ...
    def hidden_tag(self, *fields: str | Field) -> Markup: ...
