# Types for Flask-WTF 1.x, which ships none: the parts this project uses (forms, CSRF, files).
from flask_wtf.csrf import CSRFProtect as CSRFProtect
from flask_wtf.form import FlaskForm as FlaskForm
from flask_wtf.form import FlaskForm as Form

__all__ = ["CSRFProtect", "FlaskForm", "Form"]
