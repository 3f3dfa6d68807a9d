from . import fields, reqparse, apidoc, inputs, cors
from .api import Api  # noqa
from .marshalling import marshal, marshal_with, marshal_with_field  # noqa
from .mask import Mask
from .model import Model, OrderedModel, SchemaModel  # noqa
from .namespace import Namespace  # noqa
from .resource import Resource  # noqa
from .errors import abort, RestError, SpecsError, ValidationError
from .swagger import Swagger
from .__about__ import __version__, __description__

__all__ = (
    "__version__",
    "__description__",
    "Api",
    "Resource",
    "apidoc",
    "marshal",
    "marshal_with",
    "marshal_with_field",
    "Mask",
    "Model",
    "Namespace",
    "OrderedModel",
    "SchemaModel",
    "abort",
    "cors",
    "fields",
    "inputs",
    "reqparse",
    "RestError",
    "SpecsError",
    "Swagger",
    "ValidationError",
)
