"""shardkit from Python, over the C API (libshardkit_c) with ctypes.

    import shardkit
    mesh = shardkit.Mesh({"data": 4, "model": 2})
    s = shardkit.TensorSharding.parse('<@mesh, [{"data"}, {}]>')
    s.verify(mesh, [32, 8])
    s.to_hlo(mesh)                      # '{devices=[4,1,2]<=[8] last_tile_dim_replicate}'
    m = shardkit.Module.parse(text)
    m.run_passes("sdy-propagation-pipeline")
    for v in m.values(): print(v.function, v.name, v.type, v.sharding)

Errors raise shardkit.Error with the library's message. The library is
found through $SHARDKIT_LIBRARY, then the system's library path.
"""

import ctypes
import ctypes.util
import os

__all__ = ["Error", "Mesh", "TensorSharding", "Module", "Value", "version"]


class Error(Exception):
    """A failed shardkit call; str() is its message."""


def _load():
    path = os.environ.get("SHARDKIT_LIBRARY") or ctypes.util.find_library(
        "shardkit_c")
    if not path:
        raise ImportError(
            "libshardkit_c not found: set SHARDKIT_LIBRARY to its path")
    return ctypes.CDLL(path)


_lib = _load()
_p = ctypes.c_void_p
_STATUS = _p


def _fn(name, restype, *argtypes):
    f = getattr(_lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


_version = _fn("shardkit_version", ctypes.c_char_p)
_status_message = _fn("shardkit_status_message", ctypes.c_char_p, _p)
_status_destroy = _fn("shardkit_status_destroy", None, _p)
_string_free = _fn("shardkit_string_free", None, _p)
_parse_mesh = _fn("shardkit_mesh_parse", _STATUS, ctypes.c_char_p,
                  ctypes.POINTER(_p))
_mesh_create = _fn("shardkit_mesh_create", _STATUS, ctypes.c_size_t,
                   ctypes.POINTER(ctypes.c_char_p),
                   ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(_p))
_mesh_num_axes = _fn("shardkit_mesh_num_axes", ctypes.c_size_t, _p)
_mesh_axis_name = _fn("shardkit_mesh_axis_name", ctypes.c_char_p, _p,
                      ctypes.c_size_t)
_mesh_axis_size = _fn("shardkit_mesh_axis_size", ctypes.c_int64, _p,
                      ctypes.c_size_t)
_mesh_to_string = _fn("shardkit_mesh_to_string", _p, _p)
_mesh_destroy = _fn("shardkit_mesh_destroy", None, _p)
_parse_sharding = _fn("shardkit_tensor_sharding_parse", _STATUS,
                      ctypes.c_char_p, ctypes.POINTER(_p))
_sharding_to_string = _fn("shardkit_tensor_sharding_to_string", _p, _p)
_sharding_destroy = _fn("shardkit_tensor_sharding_destroy", None, _p)
_sharding_rank = _fn("shardkit_tensor_sharding_rank", ctypes.c_size_t, _p)
_sharding_mesh_name = _fn("shardkit_tensor_sharding_mesh_name",
                          ctypes.c_char_p, _p)
_sharding_dim_axes = _fn("shardkit_tensor_sharding_dim_axes", _p, _p,
                         ctypes.c_size_t)
_sharding_dim_closed = _fn("shardkit_tensor_sharding_dim_is_closed",
                           ctypes.c_int, _p, ctypes.c_size_t)
_sharding_verify = _fn("shardkit_tensor_sharding_verify", _STATUS, _p, _p,
                       ctypes.POINTER(ctypes.c_int64), ctypes.c_size_t)
_sharding_to_hlo = _fn("shardkit_tensor_sharding_to_hlo", _STATUS, _p, _p,
                       ctypes.POINTER(_p))
_sharding_from_hlo = _fn("shardkit_tensor_sharding_from_hlo", _STATUS,
                         ctypes.c_char_p, _p, ctypes.c_char_p,
                         ctypes.c_size_t, ctypes.POINTER(_p))
_module_parse = _fn("shardkit_module_parse", _STATUS, ctypes.c_char_p,
                    ctypes.c_size_t, ctypes.POINTER(_p))
_module_run_passes = _fn("shardkit_module_run_passes", _STATUS, _p,
                         ctypes.c_char_p)
_module_print = _fn("shardkit_module_print", _STATUS, _p, ctypes.POINTER(_p))
_module_mesh = _fn("shardkit_module_mesh", _STATUS, _p, ctypes.c_char_p,
                   ctypes.POINTER(_p))
_module_destroy = _fn("shardkit_module_destroy", None, _p)
_module_num_values = _fn("shardkit_module_num_values", ctypes.c_size_t, _p)
_value_function = _fn("shardkit_module_value_function", ctypes.c_char_p, _p,
                      ctypes.c_size_t)
_value_name = _fn("shardkit_module_value_name", ctypes.c_char_p, _p,
                  ctypes.c_size_t)
_value_type = _fn("shardkit_module_value_type", ctypes.c_char_p, _p,
                  ctypes.c_size_t)
_value_sharding = _fn("shardkit_module_value_sharding", _STATUS, _p,
                      ctypes.c_size_t, ctypes.POINTER(_p))


def version():
    return _version().decode()


_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1
_SIZE_MAX = (1 << (8 * ctypes.sizeof(ctypes.c_size_t))) - 1


def _int64(value, what):
    """`value` as an int that fits int64_t; ctypes would wrap 2**64+2 to 2."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, got {type(value).__name__}")
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise Error(f"error: {what} {value} does not fit in 64 bits")
    return value


def _size(value, what):
    """`value` as a non-negative int that fits size_t."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, got {type(value).__name__}")
    if not 0 <= value <= _SIZE_MAX:
        raise Error(f"error: {what} {value} is out of range")
    return value


def _text(value, what):
    """`value` (str) as UTF-8 bytes for a C string: a NUL would cut it."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {type(value).__name__}")
    if "\0" in value:
        raise Error(f"error: {what} contains a NUL character")
    return value.encode()


def _check(status):
    if status:
        # The library's messages are printable UTF-8; "replace" keeps even a
        # broken one an Error rather than a UnicodeDecodeError.
        message = _status_message(status).decode(errors="replace")
        _status_destroy(status)
        raise Error(message)


def _take_string(ptr):
    """A char* the library returned, as str, freed."""
    if not ptr:
        raise MemoryError("shardkit returned no string")
    try:
        return ctypes.string_at(ptr).decode()
    finally:
        _string_free(ptr)


class _Handle:
    _destroy = None

    def __init__(self, handle):
        self._handle = handle

    def __del__(self):
        if getattr(self, "_handle", None):
            type(self)._destroy(self._handle)
            self._handle = None


class Mesh(_Handle):
    """A mesh of named axes: Mesh({"x": 2, "y": 4}) or Mesh.parse(text)."""
    _destroy = staticmethod(_mesh_destroy)

    def __init__(self, axes=None, _handle=None):
        if _handle is None:
            axes = dict(axes or {})
            names = (ctypes.c_char_p * len(axes))(
                *[_text(n, "an axis name") for n in axes])
            sizes = (ctypes.c_int64 * len(axes))(
                *[_int64(v, "an axis size") for v in axes.values()])
            out = _p()
            _check(_mesh_create(len(axes), names, sizes, ctypes.byref(out)))
            _handle = out.value
        super().__init__(_handle)

    @classmethod
    def parse(cls, text):
        out = _p()
        _check(_parse_mesh(_text(text, "the mesh text"), ctypes.byref(out)))
        return cls(_handle=out.value)

    @property
    def axes(self):
        """{name: size}, in mesh order."""
        return {
            _mesh_axis_name(self._handle, i).decode():
            _mesh_axis_size(self._handle, i)
            for i in range(_mesh_num_axes(self._handle))
        }

    def __str__(self):
        return _take_string(_mesh_to_string(self._handle))


class TensorSharding(_Handle):
    """An sdy tensor sharding (#sdy.sharding<...>)."""
    _destroy = staticmethod(_sharding_destroy)

    @classmethod
    def parse(cls, text):
        out = _p()
        _check(_parse_sharding(_text(text, "the sharding text"),
                               ctypes.byref(out)))
        return cls(out.value)

    @classmethod
    def from_hlo(cls, hlo, mesh, mesh_name, rank):
        """The sharding a GSPMD HloSharding text gives on `mesh`."""
        out = _p()
        _check(_sharding_from_hlo(_text(hlo, "the HloSharding text"),
                                  mesh._handle,
                                  _text(mesh_name, "the mesh name"),
                                  _size(rank, "the rank"), ctypes.byref(out)))
        return cls(out.value)

    @property
    def rank(self):
        return _sharding_rank(self._handle)

    @property
    def mesh_name(self):
        return _sharding_mesh_name(self._handle).decode()

    def dim_axes(self, dim):
        """The axes of dimension `dim`, major first, as a list of strings."""
        text = _take_string(_sharding_dim_axes(self._handle, dim))
        return [a.strip() for a in text.split(",")] if text else []

    def dim_is_closed(self, dim):
        return bool(_sharding_dim_closed(self._handle, dim))

    def verify(self, mesh, shape):
        """Raises Error unless the sharding fits `shape` on `mesh`."""
        dims = (ctypes.c_int64 * len(shape))(
            *[_int64(d, "a dimension") for d in shape])
        _check(_sharding_verify(self._handle, mesh._handle, dims, len(shape)))

    def to_hlo(self, mesh):
        """The GSPMD HloSharding text of this sharding on `mesh`."""
        out = _p()
        _check(_sharding_to_hlo(self._handle, mesh._handle, ctypes.byref(out)))
        return _take_string(out.value)

    def __str__(self):
        return _take_string(_sharding_to_string(self._handle))

    def __eq__(self, other):
        return isinstance(other, TensorSharding) and str(self) == str(other)

    __hash__ = None


class Value:
    """One value of a module: function, name, type and sharding (or None)."""

    def __init__(self, function, name, type_, sharding):
        self.function = function
        self.name = name
        self.type = type_
        self.sharding = sharding

    def __repr__(self):
        return f"Value(@{self.function} {self.name} : {self.type}, " \
               f"{self.sharding})"


class Module(_Handle):
    """An sdy-annotated MLIR module."""
    _destroy = staticmethod(_module_destroy)

    @classmethod
    def parse(cls, text):
        data = text.encode()
        out = _p()
        _check(_module_parse(data, len(data), ctypes.byref(out)))
        return cls(out.value)

    def run_passes(self, pipeline):
        """Runs "sdy-propagation-pipeline" or a comma list of passes."""
        _check(_module_run_passes(self._handle,
                                  _text(pipeline, "the pass pipeline")))

    def mesh(self, name):
        out = _p()
        _check(_module_mesh(self._handle, _text(name, "the mesh name"),
                            ctypes.byref(out)))
        return Mesh(_handle=out.value)

    def values(self):
        result = []
        for i in range(_module_num_values(self._handle)):
            out = _p()
            _check(_value_sharding(self._handle, i, ctypes.byref(out)))
            result.append(
                Value(_value_function(self._handle, i).decode(),
                      _value_name(self._handle, i).decode(),
                      _value_type(self._handle, i).decode(),
                      TensorSharding(out.value) if out.value else None))
        return result

    def __str__(self):
        out = _p()
        _check(_module_print(self._handle, ctypes.byref(out)))
        return _take_string(out.value)
