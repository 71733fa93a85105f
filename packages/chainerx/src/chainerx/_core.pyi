"""Compiled core of ChainerX."""

from collections.abc import Sequence

from chainerx import (
    BackendError as BackendError,
    ChainerxError as ChainerxError,
    ContextError as ContextError,
    DeviceError as DeviceError,
    DimensionError as DimensionError,
    DtypeError as DtypeError,
    GradientError as GradientError,
    IndexError as IndexError,
    NotImplementedError as NotImplementedError
)
from chainerx._core import linalg as linalg, random as random


def build_info() -> dict:
    """
    Return a dict describing how this ChainerX was built (version, compiler, backends, BLAS).
    """

class Context:
    """Owns backends and backprop ids; most programs use the default one."""

    def __init__(self) -> None: ...

    def get_backend(self, backend_name: str) -> Backend:
        """The backend of that name, loading a plugin library on first use."""

    def get_device(self, device_name: str, index: int | None = None) -> Device: ...

    def add_backend_search_path(self, directory: str) -> None:
        """Adds a directory searched for '<name>.so' backend plugins."""

    def make_backprop_id(self, backprop_name: str) -> BackpropId: ...

    def release_backprop_id(self, backprop_id: BackpropId) -> None:
        """
        Releases a backprop id made by make_backprop_id; using it afterwards raises ContextError.
        """

class Backend:
    """A family of devices and the kernels that run on them."""

    @property
    def name(self) -> str: ...

    @property
    def context(self) -> Context: ...

    def get_device_count(self) -> int: ...

    def get_device(self, index: int) -> Device: ...

    def __repr__(self) -> str: ...

class Device:
    """One device of a backend, such as native:0."""

    @property
    def name(self) -> str: ...

    @property
    def backend(self) -> Backend: ...

    @property
    def context(self) -> Context: ...

    @property
    def index(self) -> int: ...

    def __repr__(self) -> str: ...

    def __eq__(self, arg: Device, /) -> bool: ...

    def __hash__(self) -> int: ...

    def synchronize(self) -> None:
        """Waits for queued work (the native backend runs synchronously)."""

def get_default_context() -> Context:
    """This thread's default context (else the global one)."""

def set_default_context(context: Context | None) -> None:
    """
    Sets this thread's default context (None: the global one) and resets its default device.
    """

def get_global_default_context() -> Context:
    """The process-wide default context."""

def set_global_default_context(context: Context | None) -> None:
    """Sets the process-wide default context (None: no default)."""

def get_backend(backend_name: str) -> Backend:
    """The backend of that name in the default context."""

def get_device(device: object | None = None, index: int | None = None) -> Device:
    """
    get_device('native:0'), get_device('native', 0), get_device(device), or get_device(None) for the default.
    """

def get_default_device() -> Device:
    """This thread's default device."""

def set_default_device(device: object) -> None:
    """
    Sets this thread's default device (a Device or a specifier such as 'native:1').
    """

class AnyGraph:
    """The type of chainerx.anygraph: selects every graph an array is in."""

    def __repr__(self) -> str: ...

anygraph: AnyGraph = ...

class ndarray:
    """
    An N-dimensional array on a ChainerX device, with autograd.

    Create arrays with chainerx.array, chainerx.zeros, ...; mark inputs with
    require_grad() and call backward() on a result to fill .grad.
    """

    def __init__(self, shape: object, dtype: object, device: object | None = None) -> None:
        """ndarray(shape, dtype, device=None): an uninitialized array."""

    @property
    def shape(self) -> tuple:
        """Lengths of the axes, a tuple of ints."""

    @property
    def strides(self) -> tuple:
        """Byte steps between elements along each axis."""

    @property
    def ndim(self) -> int:
        """Number of axes."""

    @property
    def size(self) -> int:
        """Number of elements."""

    @property
    def itemsize(self) -> int:
        """Bytes per element."""

    @property
    def nbytes(self) -> int:
        """Bytes of all elements."""

    @property
    def offset(self) -> int:
        """Byte offset of the first element in the underlying memory."""

    @property
    def dtype(self) -> object:
        """The numpy.dtype of the elements."""

    @property
    def device(self) -> Device:
        """The chainerx.Device holding the data."""

    @property
    def is_contiguous(self) -> bool:
        """True if the elements are C-contiguous."""

    @property
    def data_ptr(self) -> int:
        """Address of the first element."""

    @property
    def T(self) -> ndarray:
        """The transpose (a view)."""

    def __len__(self) -> int: ...

    def __bool__(self) -> bool: ...

    def __int__(self) -> int: ...

    def __float__(self) -> float: ...

    def item(self) -> object:
        """The only element as a Python number."""

    def tolist(self) -> object:
        """Nested Python lists."""

    def __repr__(self) -> str: ...

    def __str__(self) -> str: ...

    def __getitem__(self, key: object | None) -> ndarray:
        """
        NumPy indexing: a view for basic indices, a copy with integer or boolean arrays.
        """

    def __setitem__(self, key: object | None, value: object) -> None:
        """NumPy item assignment; refused when the array is in a graph."""

    def require_grad(self, backprop_id: object | None = None) -> ndarray:
        """
        Marks the array as an input of the graph (default graph unless backprop_id); returns self.
        """

    def is_grad_required(self, backprop_id: object | None = None) -> bool:
        """Whether the array is in the graph."""

    def is_backprop_required(self, backprop_id: object | None = None) -> bool:
        """
        Whether the array is in the graph (any graph with chainerx.anygraph) and that graph records now.
        """

    def get_grad(self, backprop_id: object | None = None) -> ndarray | None:
        """The gradient, or None if none was computed."""

    def set_grad(self, grad: ndarray | None, backprop_id: object | None = None) -> None:
        """Sets (or with None clears) the gradient."""

    def cleargrad(self, backprop_id: object | None = None) -> None:
        """Clears the gradient."""

    @property
    def grad(self) -> ndarray | None:
        """Gradient in the default graph (None until computed)."""

    @grad.setter
    def grad(self, grad: ndarray | None) -> None: ...

    def backward(self, backprop_id: object | None = None, enable_double_backprop: bool = False, retain_grad: bool = False) -> None:
        """
        Backpropagates from this array (starting from .grad, or ones) into the inputs' .grad.
        """

    def as_grad_stopped(self, backprop_ids: object | None = None, copy: bool = False) -> ndarray:
        """
        A view (or copy) of the same data outside the graph, which may be written in place.
        """

    def to_device(self, device: object, index: int | None = None) -> ndarray:
        """A copy on another device (self if already there)."""

    def copy(self) -> ndarray:
        """A C-contiguous copy (differentiable)."""

    def astype(self, dtype: object, copy: bool = True) -> ndarray:
        """Converted to dtype (the array itself if it has it and copy is False)."""

    def view(self) -> ndarray:
        """A new array object sharing the data."""

    def reshape(self, *args) -> ndarray:
        """``reshape(*shape)``: a view when possible."""

    def transpose(self, *args) -> ndarray:
        """``transpose(*axes)``: permuted axes (reversed when none are given)."""

    def squeeze(self, axis: object | None = None) -> ndarray: ...

    def swapaxes(self, arg0: int, arg1: int, /) -> ndarray: ...

    def ravel(self) -> ndarray: ...

    def flatten(self) -> ndarray:
        """A flattened copy."""

    def fill(self, value: object) -> None:
        """Sets every element to value."""

    def take(self, indices: object, axis: object | None = None, mode: str = 'raise') -> ndarray: ...

    def repeat(self, repeats: object, axis: object | None = None) -> ndarray:
        """Repeats elements (chainerx.repeat)."""

    def dot(self, arg: ndarray, /) -> ndarray: ...

    def clip(self, a_min: object | None, a_max: object | None) -> ndarray: ...

    def sum(self, axis: object | None = None, keepdims: bool = False) -> ndarray: ...

    def mean(self, axis: object | None = None, keepdims: bool = False) -> ndarray: ...

    def var(self, axis: object | None = None, keepdims: bool = False) -> ndarray: ...

    def max(self, axis: object | None = None, keepdims: bool = False) -> ndarray: ...

    def min(self, axis: object | None = None, keepdims: bool = False) -> ndarray: ...

    def argmax(self, axis: object | None = None) -> ndarray: ...

    def argmin(self, axis: object | None = None) -> ndarray: ...

    def all(self, axis: object | None = None, keepdims: bool = False) -> ndarray: ...

    def any(self, axis: object | None = None, keepdims: bool = False) -> ndarray: ...

    __array_ufunc__: None = None

    def __neg__(self) -> ndarray: ...

    def __pos__(self) -> ndarray: ...

    def __abs__(self) -> ndarray: ...

    def __invert__(self) -> ndarray: ...

    def __add__(self, arg: object, /) -> object: ...

    def __sub__(self, arg: object, /) -> object: ...

    def __mul__(self, arg: object, /) -> object: ...

    def __truediv__(self, arg: object, /) -> object: ...

    def __floordiv__(self, arg: object, /) -> object: ...

    def __mod__(self, arg: object, /) -> object: ...

    def __pow__(self, arg: object, /) -> object: ...

    def __matmul__(self, arg: object, /) -> object: ...

    def __and__(self, arg: object, /) -> object: ...

    def __or__(self, arg: object, /) -> object: ...

    def __xor__(self, arg: object, /) -> object: ...

    def __lshift__(self, arg: object, /) -> object: ...

    def __rshift__(self, arg: object, /) -> object: ...

    def __radd__(self, arg: object, /) -> object: ...

    def __rsub__(self, arg: object, /) -> object: ...

    def __rmul__(self, arg: object, /) -> object: ...

    def __rtruediv__(self, arg: object, /) -> object: ...

    def __rfloordiv__(self, arg: object, /) -> object: ...

    def __rmod__(self, arg: object, /) -> object: ...

    def __rpow__(self, arg: object, /) -> object: ...

    def __rmatmul__(self, arg: object, /) -> object: ...

    def __rand__(self, arg: object, /) -> object: ...

    def __ror__(self, arg: object, /) -> object: ...

    def __rxor__(self, arg: object, /) -> object: ...

    def __iadd__(self, arg: object, /) -> ndarray: ...

    def __isub__(self, arg: object, /) -> ndarray: ...

    def __imul__(self, arg: object, /) -> ndarray: ...

    def __itruediv__(self, arg: object, /) -> ndarray: ...

    def __ifloordiv__(self, arg: object, /) -> ndarray: ...

    def __imod__(self, arg: object, /) -> ndarray: ...

    def __iand__(self, arg: object, /) -> ndarray: ...

    def __ior__(self, arg: object, /) -> ndarray: ...

    def __ixor__(self, arg: object, /) -> ndarray: ...

    def __ilshift__(self, arg: object, /) -> ndarray: ...

    def __irshift__(self, arg: object, /) -> ndarray: ...

    def __eq__(self, arg: object, /) -> object: ...

    def __ne__(self, arg: object, /) -> object: ...

    def __gt__(self, arg: object, /) -> object: ...

    def __ge__(self, arg: object, /) -> object: ...

    def __lt__(self, arg: object, /) -> object: ...

    def __le__(self, arg: object, /) -> object: ...

    __hash__: None = None

class BackpropId:
    """Names one computational graph; made by chainerx.backprop_scope()."""

    @property
    def name(self) -> str: ...

    @property
    def context(self) -> Context: ...

    def __eq__(self, arg: BackpropId, /) -> bool: ...

    def __hash__(self) -> int: ...

    def __repr__(self) -> str: ...

def backprop_scope(backprop_name: str) -> _BackpropScope:
    """
    A context manager giving a new BackpropId (a separate graph), released on exit.
    """

def no_backprop_mode(backprop_id: object | None = None) -> _NoBackpropMode:
    """
    A context manager in which routines record no graph (for the given ids, or all).
    """

def force_backprop_mode(backprop_id: object | None = None) -> _ForceBackpropMode:
    """
    A context manager that turns graph recording back on inside no_backprop_mode.
    """

def is_backprop_required(backprop_id: object | None = None) -> bool:
    """Whether routines record graphs for the backprop id right now."""

def backward(outputs: object, backprop_id: object | None = None, enable_double_backprop: bool = False, retain_grad: bool = False) -> None:
    """
    Backpropagates from one array or a list of arrays into the .grad of the inputs.
    """

def grad(outputs: Sequence[ndarray], inputs: Sequence[ndarray], backprop_id: object | None = None, enable_double_backprop: bool = False, grad_outputs: object | None = None, set_grad: bool = False, retain_grad: bool = False) -> list[ndarray | None]:
    """
    Returns the gradients of outputs with respect to inputs (None where unconnected); sets them as the inputs' .grad only with set_grad, and the .grad of intermediate arrays only with retain_grad.
    """

def array(object: object, dtype: object | None = None, copy: bool = True, device: object | None = None) -> ndarray:
    """
    Creates an array from an ndarray, a NumPy array, a (nested) sequence or a number.

    With copy=False a NumPy array on the host is wrapped without copying.
    """

def asarray(object: object, dtype: object | None = None, device: object | None = None) -> ndarray:
    """
    Like array(..., copy=False): returns the input itself when nothing needs converting.
    """

def ascontiguousarray(a: object, dtype: object | None = None, device: object | None = None) -> ndarray:
    """Returns a C-contiguous array."""

def copy(a: ndarray) -> ndarray:
    """Creates a copy of a given array."""

def empty(shape: object, dtype: object | None = None, device: object | None = None) -> ndarray:
    """
    Returns an array without initializing the elements (dtype defaults to float32).
    """

def zeros(shape: object, dtype: object | None = None, device: object | None = None) -> ndarray:
    """
    Returns a new array of given shape and dtype (default float32), filled with zeros.
    """

def ones(shape: object, dtype: object | None = None, device: object | None = None) -> ndarray:
    """
    Returns a new array of given shape and dtype (default float32), filled with ones.
    """

def full(shape: object, fill_value: object, dtype: object | None = None, device: object | None = None) -> ndarray:
    """
    Returns a new array filled with fill_value (dtype defaults to the value's own).
    """

def empty_like(a: ndarray, device: object | None = None) -> ndarray:
    """Returns a new array with same shape and dtype of a given array."""

def zeros_like(a: ndarray, device: object | None = None) -> ndarray:
    """Returns an array of zeros with same shape and dtype as a given array."""

def ones_like(a: ndarray, device: object | None = None) -> ndarray:
    """Returns an array of ones with same shape and dtype as a given array."""

def full_like(a: ndarray, fill_value: object, device: object | None = None) -> ndarray:
    """Returns a full array with same shape and dtype as a given array."""

def arange(start: object, stop: object | None = None, step: object = 1, dtype: object | None = None, device: object | None = None) -> ndarray:
    """Returns an array with evenly spaced values within a given interval."""

def linspace(start: object, stop: object, num: int = 50, endpoint: bool = True, dtype: object | None = None, device: object | None = None) -> ndarray:
    """Returns an array with evenly spaced numbers over a specified interval."""

def eye(N: int, M: int | None = None, k: int = 0, dtype: object | None = None, device: object | None = None) -> ndarray:
    """Returns a 2-D array with ones on the diagonals and zeros elsewhere."""

def identity(n: int, dtype: object | None = None, device: object | None = None) -> ndarray:
    """Returns a 2-D identity array."""

def tri(N: int, M: int | None = None, k: int = 0, dtype: object | None = None, device: object | None = None) -> ndarray:
    """
    Returns a 2-D array with ones at and below the given diagonal and zeros elsewhere.
    """

def diag(v: ndarray, k: int = 0) -> ndarray:
    """
    Returns a diagonal (a view) of a 2-D array, or a diagonal array from a 1-D one.
    """

def diagflat(v: object, k: int = 0) -> ndarray:
    """Creates a diagonal array from the flattened input."""

def tril(m: ndarray, k: int = 0) -> ndarray:
    """Lower triangle of an array."""

def triu(m: ndarray, k: int = 0) -> ndarray:
    """Upper triangle of an array."""

def meshgrid(*xi, indexing: str = 'xy') -> list:
    """Returns coordinate matrices from coordinate vectors."""

def to_numpy(array: ndarray, copy: bool = True) -> object:
    """
    Converts a ChainerX array to NumPy (copy=False shares the memory of a host array).
    """

def reshape(a: ndarray, newshape: object) -> ndarray:
    """Returns a reshaped array (a view when possible)."""

def ravel(a: ndarray) -> ndarray:
    """Returns a flattened array."""

def transpose(a: ndarray, axes: object | None = None) -> ndarray:
    """Permutes the dimensions of an array."""

def broadcast_to(array: ndarray, shape: object) -> ndarray:
    """Broadcasts an array to a given shape."""

def squeeze(a: ndarray, axis: object | None = None) -> ndarray:
    """Removes size-one axes from the shape of an array."""

def expand_dims(a: ndarray, axis: int) -> ndarray:
    """Expand the shape of an array."""

def swapaxes(a: ndarray, axis1: int, axis2: int) -> ndarray:
    """Interchange two axes of an array."""

def moveaxis(a: ndarray, source: object, destination: object) -> ndarray:
    """Move axes of an array to new positions."""

def flip(m: ndarray, axis: object | None = None) -> ndarray:
    """Reverse the order of elements in an array along the given axis."""

def fliplr(m: ndarray) -> ndarray:
    """Flip array in the left/right direction."""

def flipud(m: ndarray) -> ndarray:
    """Flip array in the up/down direction."""

def atleast_2d(a: object) -> ndarray:
    """View inputs as arrays with at least two dimensions."""

def atleast_3d(a: object) -> ndarray:
    """View inputs as arrays with at least three dimensions."""

def concatenate(arrays: object, axis: object | None = 0) -> ndarray:
    """Joins arrays along an axis (flattened when axis is None)."""

def stack(arrays: object, axis: int = 0) -> ndarray:
    """Stacks arrays along a new axis."""

def hstack(arrays: object) -> ndarray:
    """Stack arrays in sequence horizontally (column wise)."""

def vstack(arrays: object) -> ndarray:
    """Stack arrays in sequence vertically (row wise)."""

def dstack(arrays: object) -> ndarray:
    """Stack arrays in sequence depth wise (along third axis)."""

def split(ary: ndarray, indices_or_sections: object, axis: int = 0) -> list:
    """Splits an array into multiple sub arrays along a given axis."""

def hsplit(ary: ndarray, indices_or_sections: object) -> list:
    """Split an array into multiple sub-arrays horizontally."""

def vsplit(ary: ndarray, indices_or_sections: object) -> list:
    """Splits an array into multiple sub-arrays vertically (row-wise)."""

def dsplit(ary: ndarray, indices_or_sections: object) -> list:
    """Split array into multiple sub-arrays along the 3rd axis (depth)."""

def repeat(a: ndarray, repeats: object, axis: object | None = None) -> ndarray:
    """Constructs an array by repeating a given array."""

def take(a: ndarray, indices: object, axis: object | None = None, mode: str = 'raise') -> ndarray:
    """
    Takes elements from an array along an axis (out-of-range indices: mode 'raise', 'wrap' or 'clip').
    """

def where(condition: object, x: object, y: object) -> ndarray:
    """Return elements chosen from x or y depending on condition."""

def nonzero(a: ndarray) -> tuple:
    """Return the indices of the elements that are non-zero."""

def sum(a: ndarray, axis: object | None = None, keepdims: bool = False) -> ndarray:
    """Sum of array elements over a given axis."""

def mean(a: ndarray, axis: object | None = None, keepdims: bool = False) -> ndarray:
    """Compute the arithmetic mean along the specified axis."""

def var(a: ndarray, axis: object | None = None, keepdims: bool = False) -> ndarray:
    """Compute the arithmetic var along the specified axis."""

def amax(a: ndarray, axis: object | None = None, keepdims: bool = False) -> ndarray:
    """Returns the maximum of an array or the maximum along an axis."""

def max(a: ndarray, axis: object | None = None, keepdims: bool = False) -> ndarray:
    """Returns the maximum of an array or the maximum along an axis."""

def amin(a: ndarray, axis: object | None = None, keepdims: bool = False) -> ndarray:
    """Returns the minimum of an array or the minimum along an axis."""

def min(a: ndarray, axis: object | None = None, keepdims: bool = False) -> ndarray:
    """Returns the minimum of an array or the minimum along an axis."""

def all(a: ndarray, axis: object | None = None, keepdims: bool = False) -> ndarray:
    """Test whether all array elements along a given axis evaluate to True."""

def any(a: ndarray, axis: object | None = None, keepdims: bool = False) -> ndarray:
    """Test whether any array element along a given axis evaluate to True."""

def logsumexp(a: ndarray, axis: object | None = None, keepdims: bool = False) -> ndarray:
    """The log of the sum of exponentials of input array."""

def argmax(a: ndarray, axis: object | None = None) -> ndarray:
    """Returns the indices of the maximum along an axis."""

def argmin(a: ndarray, axis: object | None = None) -> ndarray:
    """Returns the indices of the minimum along an axis."""

def log_softmax(x: ndarray, axis: object | None = None) -> ndarray:
    """The log of the softmax of input array (over axis 1 by default)."""

def softmax(x: ndarray, axis: object | None = None) -> ndarray:
    """The softmax of input array (over axis 1 by default)."""

def dot(a: object, b: object) -> ndarray:
    """Returns a dot product of two arrays."""

def matmul(a: object, b: object) -> ndarray:
    """Matrix product of two arrays, broadcast over leading axes."""

def add(x1: object, x2: object) -> ndarray:
    """Add arguments, element-wise."""

def subtract(x1: object, x2: object) -> ndarray:
    """Subtract arguments, element-wise."""

def multiply(x1: object, x2: object) -> ndarray:
    """Multiply arguments, element-wise."""

def divide(x1: object, x2: object) -> ndarray:
    """Divide arguments, element-wise (true division)."""

def true_divide(x1: object, x2: object) -> ndarray:
    """Divide arguments, element-wise (true division)."""

def floor_divide(x1: object, x2: object) -> ndarray:
    """Floor-divide arguments, element-wise."""

def remainder(x1: object, x2: object) -> ndarray:
    """Return element-wise remainder of division (sign of the divisor)."""

def mod(x1: object, x2: object) -> ndarray:
    """Return element-wise remainder of division (sign of the divisor)."""

def power(x1: object, x2: object) -> ndarray:
    """First array elements raised to powers from second array, element-wise."""

def maximum(x1: object, x2: object) -> ndarray:
    """Maximum arguments, element-wise."""

def minimum(x1: object, x2: object) -> ndarray:
    """Minimum arguments, element-wise."""

def arctan2(x1: object, x2: object) -> ndarray:
    """Element-wise arc tangent of x1/x2 choosing the quadrant correctly."""

def bitwise_and(x1: object, x2: object) -> ndarray:
    """Compute the bit-wise AND of two arrays element-wise."""

def bitwise_or(x1: object, x2: object) -> ndarray:
    """Compute the bit-wise OR of two arrays element-wise."""

def bitwise_xor(x1: object, x2: object) -> ndarray:
    """Compute the bit-wise XOR of two arrays element-wise."""

def left_shift(x1: object, x2: object) -> ndarray:
    """Shift the bits of an integer to the left."""

def right_shift(x1: object, x2: object) -> ndarray:
    """Shift the bits of an integer to the right."""

def equal(x1: object, x2: object) -> ndarray:
    """Returns an array of (x1 == x2) element-wise."""

def not_equal(x1: object, x2: object) -> ndarray:
    """Returns an array of (x1 != x2) element-wise."""

def greater(x1: object, x2: object) -> ndarray:
    """Returns an array of (x1 > x2) element-wise."""

def greater_equal(x1: object, x2: object) -> ndarray:
    """Returns an array of (x1 >= x2) element-wise."""

def less(x1: object, x2: object) -> ndarray:
    """Returns an array of (x1 < x2) element-wise."""

def less_equal(x1: object, x2: object) -> ndarray:
    """Returns an array of (x1 <= x2) element-wise."""

def logical_and(x1: object, x2: object) -> ndarray:
    """Returns an array of x1 AND x2 element-wise."""

def logical_or(x1: object, x2: object) -> ndarray:
    """Returns an array of x1 OR x2 element-wise."""

def logical_xor(x1: object, x2: object) -> ndarray:
    """Returns an array of x1 XOR x2 element-wise."""

def logical_not(x: object) -> ndarray:
    """Returns an array of NOT x element-wise."""

def isnan(x: object) -> ndarray:
    """Test element-wise for NaN and return result as a boolean array."""

def isinf(x: object) -> ndarray:
    """Test element-wise for positive or negative infinity."""

def isfinite(x: object) -> ndarray:
    """Test element-wise for finiteness."""

def negative(x: object) -> ndarray:
    """Numerical negative, element-wise."""

def absolute(x: object) -> ndarray:
    """Compute the absolute values element-wise."""

def abs(x: object) -> ndarray:
    """Compute the absolute values element-wise."""

def fabs(x: object) -> ndarray:
    """Compute the absolute values element-wise."""

def sign(x: object) -> ndarray:
    """Returns an element-wise indication of the sign of a number."""

def square(x: object) -> ndarray:
    """Returns the element-wise square of the input."""

def reciprocal(x: object) -> ndarray:
    """Return the reciprocal of the argument, element-wise."""

def invert(x: object) -> ndarray:
    """Compute bit-wise inversion, element-wise."""

def bitwise_not(x: object) -> ndarray:
    """Compute bit-wise inversion, element-wise."""

def exp(x: object) -> ndarray:
    """Numerical exponential, element-wise."""

def expm1(x: object) -> ndarray:
    """exp(x) - 1, element-wise."""

def exp2(x: object) -> ndarray:
    """2 ** x, element-wise."""

def erf(x: object) -> ndarray:
    """The error function, element-wise."""

def log(x: object) -> ndarray:
    """Natural logarithm, element-wise."""

def log10(x: object) -> ndarray:
    """Base 10 logarithm, element-wise."""

def log2(x: object) -> ndarray:
    """Base 2 logarithm, element-wise."""

def log1p(x: object) -> ndarray:
    """Natural logarithm of one plus the input, element-wise."""

def sqrt(x: object) -> ndarray:
    """Non-negative square-root, element-wise."""

def sin(x: object) -> ndarray:
    """Sine, element-wise."""

def cos(x: object) -> ndarray:
    """Cosine, element-wise."""

def tan(x: object) -> ndarray:
    """Tangent, element-wise."""

def arcsin(x: object) -> ndarray:
    """Inverse sine, element-wise."""

def arccos(x: object) -> ndarray:
    """Trigonometric inverse cosine, element-wise."""

def arctan(x: object) -> ndarray:
    """Trigonometric inverse tangent, element-wise."""

def sinh(x: object) -> ndarray:
    """Hyperbolic Sine, element-wise."""

def cosh(x: object) -> ndarray:
    """Hyperbolic Cosine, element-wise."""

def tanh(x: object) -> ndarray:
    """Element-wise hyperbolic tangent function."""

def arcsinh(x: object) -> ndarray:
    """Inverse hyperbolic sine, element-wise."""

def arccosh(x: object) -> ndarray:
    """Inverse hyperbolic cosine, element-wise."""

def arctanh(x: object) -> ndarray:
    """Inverse hyperbolic tangent, element-wise."""

def ceil(x: object) -> ndarray:
    """Return the ceiling of the input, element-wise."""

def floor(x: object) -> ndarray:
    """Return the floor of the input, element-wise."""

def sigmoid(x: object) -> ndarray:
    """Element-wise sigmoid logistic function."""

def relu(x: object) -> ndarray:
    """Rectified Linear Unit function."""

def clip(a: object, a_min: object | None, a_max: object | None) -> ndarray:
    """Clips the values of an array to a given interval."""

def n_step_lstm(n_layers: int, hx: ndarray, cx: ndarray, ws: Sequence[Sequence[ndarray]], bs: Sequence[Sequence[ndarray]], xs: Sequence[ndarray]) -> tuple[ndarray, ndarray, list[ndarray]]:
    """
    Stacked uni-directional LSTM over sequences sorted by decreasing length; returns (hy, cy, ys).
    """

def n_step_bilstm(n_layers: int, hx: ndarray, cx: ndarray, ws: Sequence[Sequence[ndarray]], bs: Sequence[Sequence[ndarray]], xs: Sequence[ndarray]) -> tuple[ndarray, ndarray, list[ndarray]]:
    """
    Stacked bi-directional LSTM over sequences sorted by decreasing length; returns (hy, cy, ys).
    """

def n_step_gru(n_layers: int, hx: ndarray, ws: Sequence[Sequence[ndarray]], bs: Sequence[Sequence[ndarray]], xs: Sequence[ndarray]) -> tuple[ndarray, list[ndarray]]:
    """
    Stacked uni-directional GRU over sequences sorted by decreasing length; returns (hy, ys).
    """

def n_step_bigru(n_layers: int, hx: ndarray, ws: Sequence[Sequence[ndarray]], bs: Sequence[Sequence[ndarray]], xs: Sequence[ndarray]) -> tuple[ndarray, list[ndarray]]:
    """
    Stacked bi-directional GRU over sequences sorted by decreasing length; returns (hy, ys).
    """

def n_step_rnn(n_layers: int, hx: ndarray, ws: Sequence[Sequence[ndarray]], bs: Sequence[Sequence[ndarray]], xs: Sequence[ndarray], activation: str = 'tanh') -> tuple[ndarray, list[ndarray]]:
    """
    Stacked uni-directional Elman RNN ('tanh' or 'relu') over sequences sorted by decreasing length; returns (hy, ys).
    """

def n_step_birnn(n_layers: int, hx: ndarray, ws: Sequence[Sequence[ndarray]], bs: Sequence[Sequence[ndarray]], xs: Sequence[ndarray], activation: str = 'tanh') -> tuple[ndarray, list[ndarray]]:
    """
    Stacked bi-directional Elman RNN ('tanh' or 'relu') over sequences sorted by decreasing length; returns (hy, ys).
    """

def linear(x: ndarray, W: ndarray, b: ndarray | None = None, n_batch_axes: int = 1) -> ndarray:
    """Linear function: x (flattened after n_batch_axes) times W.T, plus b."""

def lstm(c_prev: ndarray, x: ndarray) -> tuple[ndarray, ndarray]:
    """
    Long Short-Term Memory units as an activation function; returns (c, h).
    """

def slstm(c_prev1: ndarray, c_prev2: ndarray, x1: ndarray, x2: ndarray) -> tuple[ndarray, ndarray]:
    """S-LSTM units as an activation function; returns (c, h)."""

def tree_lstm(*inputs) -> tuple[ndarray, ndarray]:
    """
    TreeLSTM unit as an activation function of c_1, ..., c_n and x; returns (c, h).
    """

def absolute_error(x1: ndarray, x2: ndarray) -> ndarray:
    """Element-wise absolute error ``|x1 - x2|``."""

def squared_error(x1: ndarray, x2: ndarray) -> ndarray:
    """Element-wise squared error (x1 - x2)^2."""

def huber_loss(x1: ndarray, x2: ndarray, delta: float) -> ndarray:
    """Element-wise Huber loss."""

def gaussian_kl_divergence(mean: ndarray, ln_var: ndarray, reduce: str = 'no') -> ndarray:
    """
    KL divergence of N(mean, exp(ln_var)) from N(0, 1); reduce is 'no', 'sum' or 'mean'.
    """

def sigmoid_cross_entropy(x1: ndarray, x2: ndarray) -> ndarray:
    """
    Element-wise sigmoid cross entropy of logits x1 and integer labels x2 (-1 is ignored).
    """

def softmax_cross_entropy(x1: ndarray, x2: ndarray) -> ndarray:
    """
    Per-sample softmax cross entropy of logits x1 (n, c) and integer labels x2 (n,) (-1 is ignored).
    """

def accuracy(y: ndarray, t: ndarray, ignore_label: int | None = None) -> ndarray:
    """
    Fraction of samples whose argmax over axis 1 of y equals t, ignoring ignore_label.
    """

def max_pool(x: ndarray, ksize: object, stride: object | None = None, pad: object = 0, cover_all: bool = False) -> ndarray:
    """
    Spatial max pooling over the axes after (batch, channel); stride defaults to ksize.
    """

def average_pool(x: ndarray, ksize: object, stride: object | None = None, pad: object = 0, pad_mode: str = 'ignore') -> ndarray:
    """
    Spatial average pooling; pad_mode 'zero' counts padding in the divisor, 'ignore' does not.
    """

def batch_norm(x: ndarray, gamma: ndarray, beta: ndarray, running_mean: ndarray, running_var: ndarray, eps: float = 2e-05, decay: float = 0.9, axis: object | None = None) -> ndarray:
    """
    Batch normalization with the batch's statistics; updates running_mean and running_var in place.
    """

def fixed_batch_norm(x: ndarray, gamma: ndarray, beta: ndarray, mean: ndarray, var: ndarray, eps: float = 2e-05, axis: object | None = None) -> ndarray:
    """Batch normalization with the given statistics."""

def conv(x: ndarray, w: ndarray, b: ndarray | None = None, stride: object = 1, pad: object = 0, cover_all: bool = False) -> ndarray:
    """
    Convolution of x (n, c, d...) with w (out_c, c, k...), plus a bias b (out_c,).
    """

def conv_transpose(x: ndarray, w: ndarray, b: ndarray | None = None, stride: object = 1, pad: object = 0, outsize: object | None = None) -> ndarray:
    """
    Transposed convolution of x (n, c_in, d...) with w (c_in, c_out, k...), plus a bias.
    """
