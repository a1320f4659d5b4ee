# Types for Flask-WTF 1.x, which ships none: the parts this project uses (forms, CSRF, files).
# `make test` checks them against the installed Flask-WTF with mypy's stubtest.
from flask_wtf.csrf import CSRFProtect as CSRFProtect
from flask_wtf.form import FlaskForm as FlaskForm
from flask_wtf.form import FlaskForm as Form

__all__ = ["CSRFProtect", "FlaskForm", "Form"]
