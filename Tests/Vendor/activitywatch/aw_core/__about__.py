# Inspired by:
# https://github.com/pypa/pipfile/blob/master/pipfile/__about__.py


__all__ = [
    "__title__",
    "__summary__",
    "__uri__",
    "__author__",
    "__email__",
    "__license__",
    "__copyright__",
]

__title__ = "aw-core"
__summary__ = "Core library for ActivityWatch"
__uri__ = "https://github.com/ActivityWatch/aw-core"

__author__ = "Erik Bjäreholt, Johan Bjäreholt"
__email__ = "erik@bjareho.lt, johan@bjareho.lt"

__license__ = "MPL2"
__copyright__ = f"Copyright 2017 {__author__}"
