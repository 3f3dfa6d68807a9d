# ignore: F401

from . import __about__

from . import decorators
from . import util

from . import dirs
from . import config
from . import log

from . import models
from .models import Event

from . import schema

__all__ = [
    "__about__",
    # Classes
    "Event",
    # Modules
    "decorators",
    "util",
    "dirs",
    "config",
    "log",
    "models",
    "schema",
]
