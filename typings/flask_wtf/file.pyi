from collections.abc import Iterable
from typing import Any

from werkzeug.datastructures import FileStorage
from wtforms import Field
from wtforms import FileField as _FileField
from wtforms import MultipleFileField as _MultipleFileField
from wtforms.form import BaseForm
from wtforms.validators import DataRequired

class FileField(_FileField):
    # The uploaded file, or None when the form sent none.
    data: FileStorage | None

class MultipleFileField(_MultipleFileField):
    data: list[Any]

class FileRequired(DataRequired):
    def __call__(self, form: BaseForm, field: Field) -> None: ...

file_required = FileRequired

class FileAllowed:
    def __init__(self, upload_set: Iterable[str], message: str | None = None) -> None: ...
    def __call__(self, form: BaseForm, field: Field) -> None: ...

file_allowed = FileAllowed

class FileSize:
    def __init__(self, max_size: int, min_size: int = 0, message: str | None = None) -> None: ...
    def __call__(self, form: BaseForm, field: Field) -> None: ...

file_size = FileSize
