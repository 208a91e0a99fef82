/* tile._launcher: the launch path of tile kernels in C.
 *
 * Two types:
 *   Kernel      one loaded kernel on one device: packs a sequence of Python
 *               arguments by the kernel's parameter types and calls
 *               cuLaunchKernelEx. kernel.launch(grid, args, stream=None).
 *   Dispatcher  the cache of one @tile.jit function: `dispatcher[grid](*args,
 *               **kwargs)` computes the specialization key of the call
 *               (argument kinds, dtypes, alignment, int facts, constexpr
 *               values, the device of the tensors), finds the Kernel and the
 *               binding of the call's arguments to its parameters, and
 *               launches; on a miss it calls the Python slow path, which
 *               compiles and returns the entry to cache.
 *
 * A host TensorDescriptor argument reaches a kernel as its base, shape and
 * strides, and as a CUDA tensor map (a "tensormap" parameter: 128 bytes by
 * value) which the launcher encodes with cuTensorMapEncodeTiled when the
 * kernel reads it (its metadata gives the box, swizzle and element size),
 * caching the maps of each such parameter by (address, shape, strides).
 * A tensor map the kernel makes itself (a descriptor or block pointer made
 * from its parameters) is a hidden "tensormap" parameter after the others,
 * with a recipe: the launcher makes the map from the packed values of the
 * parameters it names (address, and extents and strides as products of
 * integer parameters), encoded and cached as a descriptor's.
 *
 * CUDA is reached through function pointers that tile.driver takes from
 * libcuda with ctypes and hands to configure(), so there is one loader of
 * the driver library. Only the stable ABI (Py_LIMITED_API, 3.11) is used:
 * one build serves every CPython from 3.11 on.
 */
#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <structmember.h>

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef Py_SETREF /* not in the limited API before 3.12 */
#define Py_SETREF(dst, src)                                                    \
  do {                                                                         \
    PyObject *old_ = (PyObject *)(dst);                                        \
    (dst) = (src);                                                             \
    Py_DECREF(old_);                                                           \
  } while (0)
#define Py_XSETREF(dst, src)                                                   \
  do {                                                                         \
    PyObject *old_ = (PyObject *)(dst);                                        \
    (dst) = (src);                                                             \
    Py_XDECREF(old_);                                                          \
  } while (0)
#endif

/* ------------------------------------------------------------------------ */
/* CUDA driver entry points (cuda.h), taken by address                       */
/* ------------------------------------------------------------------------ */

#include "cuda_launch_abi.h"

/* cuda.h's CUtensorMap: 128 opaque bytes, which cuTensorMapEncodeTiled
 * wants 64-byte aligned (cuda.h aligns its struct to 128, as here). */
#define TENSOR_MAP_BYTES 128
#define TENSOR_MAP_MAX_RANK 5
typedef struct {
  _Alignas(128) unsigned char bytes[TENSOR_MAP_BYTES];
} TensorMap;
_Static_assert(sizeof(TensorMap) == TENSOR_MAP_BYTES, "cuda.h's CUtensorMap");

/* cuda.h's CUtensorMap* enums (ints in the ABI), the values used here. */
enum {
  CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0,
  CU_TENSOR_MAP_DATA_TYPE_UINT16 = 1,
  CU_TENSOR_MAP_DATA_TYPE_UINT32 = 2,
  CU_TENSOR_MAP_DATA_TYPE_UINT64 = 4,
  CU_TENSOR_MAP_INTERLEAVE_NONE = 0,
  CU_TENSOR_MAP_SWIZZLE_NONE = 0,
  CU_TENSOR_MAP_SWIZZLE_32B = 1,
  CU_TENSOR_MAP_SWIZZLE_64B = 2,
  CU_TENSOR_MAP_SWIZZLE_128B = 3,
  CU_TENSOR_MAP_L2_PROMOTION_L2_128B = 2,
  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0,
};

typedef CUresult (*TensorMapEncodeTiledFn)(
    TensorMap *tensorMap, int tensorDataType, uint32_t tensorRank,
    void *globalAddress, const uint64_t *globalDim,
    const uint64_t *globalStrides, const uint32_t *boxDim,
    const uint32_t *elementStrides, int interleave, int swizzle,
    int l2Promotion, int oobFill);

static LaunchExFn cu_launch_ex;
static LaunchFn cu_launch;
static CtxSetCurrentFn cu_ctx_set_current;
static CtxGetCurrentFn cu_ctx_get_current;
static TensorMapEncodeTiledFn cu_tensor_map_encode_tiled; /* NULL: absent */

/* Set by configure(). */
static PyObject *launch_error;  /* tile.driver.LaunchError */
static PyObject *cuda_error;    /* callable(call, code, hint) -> exception */
static PyObject *device_query;  /* callable() -> current device ordinal */
static PyObject *torch_streams; /* torch._C._cuda_getCurrentRawStream */
static PyObject *stream_finder; /* callable() -> the above or None */

/* Interned names. */
static PyObject *s_data_ptr, *s_get_device, *s_dtype, *s_device, *s_cai,
    *s_data, *s_typestr, *s_stream, *s_cuda_stream, *s_ptr, *s_handle, *s_base,
    *s_shape, *s_strides, *s_torch;

/* ------------------------------------------------------------------------ */
/* Small helpers                                                             */
/* ------------------------------------------------------------------------ */

static int set_launch_error(const char *format, ...) {
  va_list args;
  va_start(args, format);
  PyObject *message = PyUnicode_FromFormatV(format, args);
  va_end(args);
  if (message) {
    PyErr_SetObject(launch_error ? launch_error : PyExc_ValueError, message);
    Py_DECREF(message);
  }
  return -1;
}

/* "module.Type" or "Type" for builtins, as errors name argument types. */
static PyObject *describe_type(PyObject *value) {
  PyObject *type = (PyObject *)Py_TYPE(value);
  PyObject *module = PyObject_GetAttrString(type, "__module__");
  PyObject *name = PyObject_GetAttrString(type, "__qualname__");
  PyObject *result = NULL;
  if (module && name && PyUnicode_Check(module)) {
    if (PyUnicode_CompareWithASCIIString(module, "builtins") == 0)
      result = Py_NewRef(name);
    else
      result = PyUnicode_FromFormat("%U.%U", module, name);
  }
  Py_XDECREF(module);
  Py_XDECREF(name);
  if (!result) {
    PyErr_Clear();
    result = PyUnicode_FromString("object");
  }
  return result;
}

static void raise_cuda(const char *call, CUresult code, PyObject *hint) {
  PyObject *exc = NULL;
  if (cuda_error)
    exc = PyObject_CallFunction(cuda_error, "siO", call, code,
                                hint ? hint : Py_None);
  if (exc) {
    PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    Py_DECREF(exc);
  } else if (!PyErr_Occurred()) {
    PyErr_Format(PyExc_RuntimeError, "%s failed with CUresult %d", call, code);
  }
}

/* ------------------------------------------------------------------------ */
/* Parameter types and packing                                               */
/* ------------------------------------------------------------------------ */

/* One character per kernel parameter, as tile.driver.packing writes them. */
enum {
  P_PTR = 'p',
  P_I1 = 'b',
  P_I8 = 'c',
  P_I16 = 'h',
  P_I32 = 'i',
  P_I64 = 'l',
  P_F16 = 'e',
  P_BF16 = 'B',
  P_F32 = 'f',
  P_F64 = 'd',
  P_TENSOR_MAP = 'T', /* 128 bytes, 64-byte aligned: packed apart */
};

static int slot_size(char code) {
  switch (code) {
  case P_TENSOR_MAP:
    return TENSOR_MAP_BYTES;
  case P_PTR:
  case P_I64:
  case P_F64:
    return 8;
  case P_I32:
  case P_F32:
    return 4;
  case P_I16:
  case P_F16:
  case P_BF16:
    return 2;
  case P_I1:
  case P_I8:
    return 1;
  default:
    return 0;
  }
}

static const char *type_name(char code) {
  switch (code) {
  case P_PTR:
    return "ptr";
  case P_I1:
    return "i1";
  case P_I8:
    return "i8";
  case P_I16:
    return "i16";
  case P_I32:
    return "i32";
  case P_I64:
    return "i64";
  case P_F16:
    return "f16";
  case P_BF16:
    return "bf16";
  case P_F32:
    return "f32";
  case P_F64:
    return "f64";
  case P_TENSOR_MAP:
    return "tensormap";
  default:
    return "?";
  }
}

/* Round-to-nearest-even conversions to the 16-bit float formats. */
static uint16_t half_bits(double value, int *overflow) {
  uint32_t sign = signbit(value) ? 0x8000u : 0u;
  *overflow = 0;
  if (isnan(value))
    return (uint16_t)(sign | 0x7E00u);
  if (isinf(value))
    return (uint16_t)(sign | 0x7C00u);
  double magnitude = fabs(value);
  if (magnitude == 0.0)
    return (uint16_t)sign;
  /* The largest finite half is 65504; 65520 and above round to infinity. */
  if (magnitude >= 65520.0) {
    *overflow = 1;
    return 0;
  }
  /* Scale into the half grid and round there, from the double itself so
   * that only one rounding happens. */
  int exponent;
  frexp(magnitude, &exponent); /* magnitude = m * 2^exponent, m in [0.5,1) */
  int e = exponent - 1;        /* magnitude in [2^e, 2^(e+1)) */
  if (e < -14)
    e = -14; /* subnormal range: fixed step 2^-24 */
  double step = ldexp(1.0, e - 10);
  double units = nearbyint(magnitude / step); /* ties to even (default mode) */
  uint32_t result;
  if (e == -14 && units < 1024.0) {
    result = (uint32_t)units; /* subnormal (or zero) */
  } else {
    if (units >= 2048.0) { /* rounded up into the next binade */
      units /= 2.0;
      e += 1;
    }
    result = ((uint32_t)(e + 15) << 10) | ((uint32_t)units - 1024u);
  }
  return (uint16_t)(sign | result);
}

uint16_t tile_bf16_bits(double value) {
  float f = (float)value;
  uint32_t bits;
  memcpy(&bits, &f, 4);
  if ((bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu))
    return (uint16_t)((bits >> 16) | 0x40u); /* keep NaN a NaN */
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return (uint16_t)(bits >> 16);
}

/* A runtime value of an argument, as the key computation found it, so the
 * packer does not ask twice. */
typedef struct {
  int known; /* 1 when `address` holds the pointer */
  uint64_t address;
} Probe;

/* Where an argument comes from, for messages: "kernel 'k' argument 2 (n:
 * i32)". */
typedef struct {
  PyObject *kernel_name;
  PyObject *param_names; /* tuple of str */
  const char *codes;
} Where;

#define WHERE_FMT "kernel '%U' argument %zd (%U: %s)"
#define WHERE_ARGS(w, i)                                                       \
  (w)->kernel_name, (Py_ssize_t)(i), PyTuple_GetItem((w)->param_names, (i)),   \
      type_name((w)->codes[i])

/* Classification of argument types, cached per type object. */
enum { KIND_OTHER = 0, KIND_TENSOR = 1, KIND_CAI = 2 };
static PyObject *kind_cache; /* dict: type -> int kind */

static int type_kind(PyObject *value) {
  PyObject *type = (PyObject *)Py_TYPE(value);
  PyObject *cached = PyDict_GetItemWithError(kind_cache, type);
  if (cached)
    return (int)PyLong_AsLong(cached);
  if (PyErr_Occurred())
    return -1;
  int kind = KIND_OTHER;
  if (PyObject_HasAttr(type, s_data_ptr) &&
      PyObject_HasAttr(type, s_get_device))
    kind = KIND_TENSOR; /* torch.Tensor and its subclasses */
  else if (PyObject_HasAttr(type, s_cai))
    kind = KIND_CAI; /* CuPy, Numba, ... */
  PyObject *number = PyLong_FromLong(kind);
  if (!number || PyDict_SetItem(kind_cache, type, number) < 0) {
    Py_XDECREF(number);
    return -1;
  }
  Py_DECREF(number);
  return kind;
}

/* The kind of one value: its type's, or KIND_CAI for an object that sets
 * __cuda_array_interface__ on itself rather than on its type. */
static int value_kind(PyObject *value) {
  int kind = type_kind(value);
  if (kind == KIND_OTHER && PyObject_HasAttr(value, s_cai))
    kind = KIND_CAI;
  return kind;
}

static int tensor_device(PyObject *value, long *device) {
  PyObject *result = PyObject_CallMethodObjArgs(value, s_get_device, NULL);
  if (!result)
    return -1;
  *device = PyLong_AsLong(result);
  Py_DECREF(result);
  return (*device == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int tensor_address(PyObject *value, uint64_t *address) {
  PyObject *result = PyObject_CallMethodObjArgs(value, s_data_ptr, NULL);
  if (!result)
    return -1;
  *address = PyLong_AsUnsignedLongLong(result);
  Py_DECREF(result);
  return PyErr_Occurred() ? -1 : 0;
}

/* __cuda_array_interface__: the data pointer and, if asked, the typestr. */
static int cai_fields(PyObject *value, uint64_t *address, PyObject **typestr) {
  PyObject *iface = PyObject_GetAttr(value, s_cai);
  if (!iface)
    return -1;
  int status = -1;
  PyObject *data = PyMapping_GetItemString(iface, "data");
  if (data) {
    PyObject *first = PySequence_GetItem(data, 0);
    if (first) {
      *address = PyLong_AsUnsignedLongLong(first);
      Py_DECREF(first);
      status = PyErr_Occurred() ? -1 : 0;
    }
    Py_DECREF(data);
  }
  if (status == 0 && typestr) {
    *typestr = PyMapping_GetItemString(iface, "typestr");
    if (!*typestr)
      status = -1;
  }
  Py_DECREF(iface);
  return status;
}

/* The device address of a pointer argument; `device` >= 0 demands that a
 * tensor be on that device. */
static int pointer_value(PyObject *value, const Where *where, Py_ssize_t i,
                         long device, uint64_t *out) {
  if (value == Py_None) {
    *out = 0;
    return 0;
  }
  if (PyLong_CheckExact(value)) {
    *out = PyLong_AsUnsignedLongLong(value);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      return set_launch_error(WHERE_FMT ": address %R is not a 64-bit address",
                              WHERE_ARGS(where, i), value);
    }
    return 0;
  }
  int kind = value_kind(value);
  if (kind < 0)
    return -1;
  if (kind == KIND_TENSOR) {
    long on;
    if (tensor_device(value, &on) < 0)
      return -1;
    if (on < 0) {
      PyObject *place = PyObject_GetAttr(value, s_device);
      if (!place)
        PyErr_Clear();
      set_launch_error(WHERE_FMT ": got a tensor on %S, but a kernel needs GPU "
                                 "memory; move it with .cuda()",
                       WHERE_ARGS(where, i), place ? place : Py_None);
      Py_XDECREF(place);
      return -1;
    }
    if (device >= 0 && on != device)
      return set_launch_error(WHERE_FMT ": tensor is on cuda:%ld but the "
                                        "kernel was loaded on cuda:%ld",
                              WHERE_ARGS(where, i), on, device);
    return tensor_address(value, out);
  }
  if (kind == KIND_CAI)
    return cai_fields(value, out, NULL);
  if (PyLong_Check(value) && !PyBool_Check(value)) {
    *out = PyLong_AsUnsignedLongLong(value);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      return set_launch_error(WHERE_FMT ": address %R is not a 64-bit address",
                              WHERE_ARGS(where, i), value);
    }
    return 0;
  }
  PyObject *described = describe_type(value);
  if (PyObject_HasAttrString(value, "__array_interface__") ||
      PyObject_HasAttrString(value, "__array__"))
    set_launch_error(WHERE_FMT
                     ": got a host array (%U); a kernel needs GPU "
                     "memory: pass a CUDA torch tensor, a CuPy array or an "
                     "object with __cuda_array_interface__",
                     WHERE_ARGS(where, i), described);
  else
    set_launch_error(WHERE_FMT
                     ": expected a GPU array (torch tensor, CuPy "
                     "array, __cuda_array_interface__) or an address, got %U",
                     WHERE_ARGS(where, i), described);
  Py_XDECREF(described);
  return -1;
}

static int int_value(PyObject *value, const Where *where, Py_ssize_t i,
                     int bits, int64_t *out) {
  if (bits == 1) {
    if (value == Py_True || value == Py_False ||
        (PyLong_Check(value) && !PyBool_Check(value))) {
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
      if (!overflow && (v == 0 || v == 1)) {
        *out = v;
        return 0;
      }
      PyErr_Clear();
    }
    return set_launch_error(WHERE_FMT ": expected a bool for an i1 parameter, "
                                      "got %R",
                            WHERE_ARGS(where, i), value);
  }
  PyObject *number = PyBool_Check(value) || PyFloat_Check(value)
                         ? NULL
                         : PyNumber_Index(value);
  if (!number) {
    PyErr_Clear();
    PyObject *described = describe_type(value);
    set_launch_error(WHERE_FMT ": expected an integer for an i%d parameter, "
                               "got %U %R",
                     WHERE_ARGS(where, i), bits, described, value);
    Py_XDECREF(described);
    return -1;
  }
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(number, &overflow);
  int fits;
  if (overflow > 0 && bits == 64) {
    /* An unsigned spelling of a negative i64: [2^63, 2^64). */
    unsigned long long u = PyLong_AsUnsignedLongLong(number);
    fits = !PyErr_Occurred();
    PyErr_Clear();
    v = (long long)u;
  } else if (overflow) {
    fits = 0;
  } else if (bits == 64) {
    fits = 1;
  } else {
    long long low = -(1LL << (bits - 1)), high = 1LL << bits;
    fits = v >= low && v < high;
    if (fits && v >= (1LL << (bits - 1)))
      v -= 1LL << bits; /* unsigned spelling of a negative number */
  }
  if (!fits) {
    set_launch_error(WHERE_FMT ": %S does not fit in i%d", WHERE_ARGS(where, i),
                     number, bits);
    Py_DECREF(number);
    return -1;
  }
  Py_DECREF(number);
  *out = v;
  return 0;
}

static int float_value(PyObject *value, const Where *where, Py_ssize_t i,
                       double *out) {
  if (PyFloat_CheckExact(value)) {
    *out = PyFloat_AsDouble(value);
    return 0;
  }
  if (!PyBool_Check(value)) {
    double d = PyFloat_AsDouble(value); /* ints, __float__ */
    if (!(d == -1.0 && PyErr_Occurred())) {
      *out = d;
      return 0;
    }
    PyErr_Clear();
  }
  PyObject *described = describe_type(value);
  set_launch_error(WHERE_FMT ": expected a number for an %s parameter, got %U",
                   WHERE_ARGS(where, i), type_name(where->codes[i]), described);
  Py_XDECREF(described);
  return -1;
}

/* Writes argument `i` into `slot` (8 bytes, aligned). */
static int pack_one(PyObject *value, const Where *where, Py_ssize_t i,
                    long device, const Probe *probe, void *slot) {
  char code = where->codes[i];
  switch (code) {
  case P_PTR: {
    uint64_t address;
    if (probe && probe->known)
      address = probe->address;
    else if (pointer_value(value, where, i, device, &address) < 0)
      return -1;
    memcpy(slot, &address, 8);
    return 0;
  }
  case P_I32:
    if (PyLong_CheckExact(value)) { /* the common case, quickly */
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
      if (!overflow && v >= INT32_MIN && v <= INT32_MAX) {
        int32_t x = (int32_t)v;
        memcpy(slot, &x, 4);
        return 0;
      }
    }
    /* fall through to the checking conversion */
    __attribute__((fallthrough));
  case P_I1:
  case P_I8:
  case P_I16:
  case P_I64: {
    int bits = code == P_I1    ? 1
               : code == P_I8  ? 8
               : code == P_I16 ? 16
               : code == P_I32 ? 32
                               : 64;
    int64_t v;
    if (int_value(value, where, i, bits, &v) < 0)
      return -1;
    if (bits <= 8) {
      int8_t x = (int8_t)v;
      memcpy(slot, &x, 1);
    } else if (bits == 16) {
      int16_t x = (int16_t)v;
      memcpy(slot, &x, 2);
    } else if (bits == 32) {
      int32_t x = (int32_t)v;
      memcpy(slot, &x, 4);
    } else {
      memcpy(slot, &v, 8);
    }
    return 0;
  }
  case P_F32:
  case P_F64:
  case P_F16:
  case P_BF16: {
    double d;
    if (float_value(value, where, i, &d) < 0)
      return -1;
    if (code == P_F64) {
      memcpy(slot, &d, 8);
    } else if (code == P_F32) {
      float f = (float)d;
      memcpy(slot, &f, 4);
    } else if (code == P_F16) {
      int overflow;
      uint16_t h = half_bits(d, &overflow);
      if (overflow)
        return set_launch_error(WHERE_FMT ": %R is out of the f16 range",
                                WHERE_ARGS(where, i), value);
      memcpy(slot, &h, 2);
    } else {
      uint16_t b = tile_bf16_bits(d);
      memcpy(slot, &b, 2);
    }
    return 0;
  }
  default:
    PyErr_Format(PyExc_RuntimeError, "unknown parameter type code %c", code);
    return -1;
  }
}

/* ------------------------------------------------------------------------ */
/* Grids and streams                                                         */
/* ------------------------------------------------------------------------ */

static int grid_error(PyObject *grid, const char *detail) {
  return set_launch_error("grid must be a tuple of 1 to 3 positive ints, got "
                          "%R%s",
                          grid, detail);
}

static int parse_grid(PyObject *grid, const unsigned max_grid[3],
                      unsigned dims[3]) {
  dims[0] = dims[1] = dims[2] = 1;
  PyObject *items;
  if (PyLong_Check(grid) && !PyBool_Check(grid)) {
    items = PyTuple_Pack(1, grid);
  } else if (PyTuple_Check(grid) || PyList_Check(grid)) {
    items = PySequence_Tuple(grid);
  } else {
    return grid_error(grid, "");
  }
  if (!items)
    return -1;
  Py_ssize_t n = PyTuple_Size(items);
  if (n < 1 || n > 3) {
    Py_DECREF(items);
    return grid_error(grid, "");
  }
  for (Py_ssize_t axis = 0; axis < n; axis++) {
    PyObject *extent = PyTuple_GetItem(items, axis);
    PyObject *number = PyBool_Check(extent) ? NULL : PyNumber_Index(extent);
    if (!number) {
      PyErr_Clear();
      Py_DECREF(items);
      return grid_error(grid, "");
    }
    long long v = PyLong_AsLongLong(number);
    Py_DECREF(number);
    if (v == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      v = (long long)max_grid[axis] + 1;
    }
    if (v < 1) {
      set_launch_error("grid must be a tuple of 1 to 3 positive ints, got %R "
                       "(axis %zd is %lld)",
                       grid, axis, v);
      Py_DECREF(items);
      return -1;
    }
    if (v > (long long)max_grid[axis]) {
      set_launch_error("grid %R: axis %zd is %lld, above the device's limit %u",
                       items, axis, v, max_grid[axis]);
      Py_DECREF(items);
      return -1;
    }
    dims[axis] = (unsigned)v;
  }
  Py_DECREF(items);
  return 0;
}

/* torch's current raw stream on `device` once torch has initialized CUDA;
 * else 0, the legacy default stream (which is also torch's default). */
static int current_stream(long device, uint64_t *out) {
  *out = 0;
  if (!torch_streams) {
    if (!stream_finder)
      return 0;
    /* Without torch imported there is no torch stream: a dictionary lookup
     * here spares launches without torch (CuPy's) a Python call each. */
    PyObject *torch =
        PyDict_GetItemWithError(PyImport_GetModuleDict(), s_torch);
    if (!torch)
      return PyErr_Occurred() ? -1 : 0;
    PyObject *found = PyObject_CallNoArgs(stream_finder);
    if (!found)
      return -1;
    if (found == Py_None) {
      Py_DECREF(found);
      return 0;
    }
    torch_streams = found; /* torch never un-initializes CUDA */
  }
  /* (No format string to parse: the device's int is cached by Python.) */
  PyObject *ordinal = PyLong_FromLong(device);
  if (!ordinal)
    return -1;
  PyObject *result = PyObject_CallFunctionObjArgs(torch_streams, ordinal, NULL);
  Py_DECREF(ordinal);
  if (!result)
    return -1;
  *out = PyLong_AsUnsignedLongLong(result);
  Py_DECREF(result);
  return PyErr_Occurred() ? -1 : 0;
}

/* A CUstream from an int handle, torch.cuda.Stream, cupy Stream; None is
 * the current stream of `device`. */
static int stream_value(PyObject *stream, long device, uint64_t *out) {
  if (!stream || stream == Py_None)
    return current_stream(device, out);
  if (PyLong_Check(stream) && !PyBool_Check(stream)) {
    *out = PyLong_AsUnsignedLongLong(stream);
    return PyErr_Occurred() ? -1 : 0;
  }
  PyObject *names[] = {s_cuda_stream, s_ptr, s_handle};
  for (int k = 0; k < 3; k++) {
    PyObject *handle = PyObject_GetAttr(stream, names[k]);
    if (!handle) {
      PyErr_Clear();
      continue;
    }
    if (PyLong_Check(handle) && !PyBool_Check(handle)) {
      *out = PyLong_AsUnsignedLongLong(handle);
      Py_DECREF(handle);
      return PyErr_Occurred() ? -1 : 0;
    }
    Py_DECREF(handle);
  }
  PyObject *described = describe_type(stream);
  set_launch_error("cannot use %U as a CUDA stream: pass a torch.cuda.Stream, "
                   "a cupy.cuda.Stream or a CUstream handle (int)",
                   described);
  Py_XDECREF(described);
  return -1;
}

/* ------------------------------------------------------------------------ */
/* Kernel                                                                    */
/* ------------------------------------------------------------------------ */

#define MAX_PARAMS 256
/* Tensor maps of one kernel: 4 KiB of parameters, the space CUDA gave
 * kernel parameters before 12.1. */
#define MAX_TENSOR_MAPS 32
/* Maps remembered per parameter, replaced round-robin. */
#define TENSOR_MAP_CACHE_WAYS 4

/* One encoded map and what it was encoded from. */
typedef struct {
  int valid;
  uint64_t address;
  uint64_t dims[TENSOR_MAP_MAX_RANK];        /* innermost first */
  uint64_t strides[TENSOR_MAP_MAX_RANK - 1]; /* bytes, innermost-but-one */
  unsigned char bytes[TENSOR_MAP_BYTES];
} TensorMapEntry;

/* Parameters one extent or stride of a recipe multiplies (as
 * tile.driver.packing.MAX_RECIPE_FACTORS). */
#define RECIPE_MAX_FACTORS 8

/* An extent or stride of a map made at launch: `scale` times the values of
 * integer parameters `params`. */
typedef struct {
  int64_t scale;
  unsigned count;
  Py_ssize_t params[RECIPE_MAX_FACTORS];
} RecipeTerm;

/* A "tensormap" parameter: how the kernel reads the map (from its
 * metadata), and the maps encoded for it. `encoded` 0: the kernel does not
 * read the map, which is then 128 zero bytes. `recipe` 1: a hidden
 * parameter, its map made from other parameters (`base` for the address,
 * `shape` and `strides` outermost first, strides in elements). */
typedef struct {
  Py_ssize_t param; /* its index among the kernel's parameters */
  int encoded;
  uint32_t rank;
  uint32_t box[TENSOR_MAP_MAX_RANK]; /* innermost first */
  unsigned swizzle_bytes;            /* 0, 32, 64, 128 */
  unsigned element_bytes;            /* 1, 2, 4, 8 */
  int recipe;
  Py_ssize_t base;
  RecipeTerm shape[TENSOR_MAP_MAX_RANK];
  RecipeTerm strides[TENSOR_MAP_MAX_RANK];
  unsigned next; /* the entry to replace next */
  TensorMapEntry cache[TENSOR_MAP_CACHE_WAYS];
} TensorMapParam;

/* Never written: the bytes of a map the kernel does not read. */
static TensorMap zero_tensor_map;

typedef struct {
  PyObject_HEAD CUfunction function;
  /* Where the compile raised occupancy: the assembler's own function, run
   * for grids of at most small_grid_blocks blocks (they all fit on the
   * device at once without the register limit); NULL otherwise. */
  CUfunction small_grid_function;
  unsigned long long small_grid_blocks;
  CUcontext context;
  long device;
  unsigned threads;
  unsigned shared;
  unsigned max_grid[3];
  /* Triton's launch_cooperative_grid: all blocks co-resident. */
  int cooperative;
  PyObject *name;        /* str */
  PyObject *param_names; /* tuple of str */
  PyObject *codes_obj;   /* bytes, one code per parameter */
  const char *codes;
  Py_ssize_t count;
  TensorMapParam *maps; /* one per P_TENSOR_MAP parameter, in order */
  Py_ssize_t map_count;
  /* Parameters at the end that are maps made at launch (recipes): a launch
   * gives None for them, or leaves them out. */
  Py_ssize_t hidden;
} Kernel;

static PyTypeObject *KernelType;

static int is_int_code(char code) {
  return code == P_I1 || code == P_I8 || code == P_I16 || code == P_I32 ||
         code == P_I64;
}

/* A tensor map's encoding: box (outermost first), swizzle and element bytes
 * as Python objects, into `map`. */
static int parse_encoding(TensorMapParam *map, Py_ssize_t i, PyObject *box,
                          PyObject *swizzle_obj, PyObject *element_obj) {
  unsigned long swizzle = PyLong_AsUnsignedLong(swizzle_obj);
  unsigned long element =
      PyErr_Occurred() ? 0 : PyLong_AsUnsignedLong(element_obj);
  if (PyErr_Occurred())
    PyErr_Clear();
  PyObject *extents = PySequence_Tuple(box);
  if (!extents)
    return -1;
  Py_ssize_t rank = PyTuple_Size(extents);
  int bad = rank < 1 || rank > TENSOR_MAP_MAX_RANK;
  for (Py_ssize_t d = 0; !bad && d < rank; d++) {
    long extent = PyLong_AsLong(PyTuple_GetItem(extents, d));
    if (extent == -1 && PyErr_Occurred())
      PyErr_Clear();
    bad = extent < 1 || extent > 256;
    map->box[rank - 1 - d] = (uint32_t)extent; /* innermost first */
  }
  Py_DECREF(extents);
  if (bad ||
      (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128) ||
      (element != 1 && element != 2 && element != 4 && element != 8)) {
    PyErr_Format(PyExc_ValueError,
                 "tensor_maps: parameter %zd has box %R, swizzle %R, "
                 "element_bytes %R; expected 1 to %d extents in 1..256, "
                 "0/32/64/128 and 1/2/4/8",
                 i, box, swizzle_obj, element_obj, TENSOR_MAP_MAX_RANK);
    return -1;
  }
  map->encoded = 1;
  map->rank = (uint32_t)rank;
  map->swizzle_bytes = (unsigned)swizzle;
  map->element_bytes = (unsigned)element;
  return 0;
}

/* The terms of a recipe's shape or strides (`what`): (scale, (j, ...))
 * each, j an integer parameter. Returns their number, or -1. */
static Py_ssize_t parse_recipe_terms(PyObject *terms, const char *codes,
                                     Py_ssize_t count, Py_ssize_t i,
                                     const char *what, RecipeTerm *out) {
  PyObject *items = PySequence_Tuple(terms);
  if (!items)
    return -1;
  Py_ssize_t rank = PyTuple_Size(items);
  if (rank < 1 || rank > TENSOR_MAP_MAX_RANK) {
    PyErr_Format(PyExc_ValueError,
                 "tensor_maps: parameter %zd: recipe %s %R has not 1 to %d "
                 "terms",
                 i, what, terms, TENSOR_MAP_MAX_RANK);
    goto fail;
  }
  for (Py_ssize_t d = 0; d < rank; d++) {
    PyObject *term = PyTuple_GetItem(items, d), *scale, *factors;
    if (!PyTuple_Check(term) || PyTuple_Size(term) != 2) {
      PyErr_Format(PyExc_ValueError,
                   "tensor_maps: parameter %zd: recipe %s[%zd] %R is not "
                   "(scale, (parameter indices))",
                   i, what, d, term);
      goto fail;
    }
    scale = PyTuple_GetItem(term, 0);
    factors = PySequence_Tuple(PyTuple_GetItem(term, 1));
    if (!factors)
      goto fail;
    Py_ssize_t n = PyTuple_Size(factors);
    out[d].scale = PyLong_AsLongLong(scale);
    out[d].count = (unsigned)n;
    int bad = PyErr_Occurred() != NULL || n > RECIPE_MAX_FACTORS;
    PyErr_Clear();
    for (Py_ssize_t k = 0; !bad && k < n; k++) {
      Py_ssize_t j = PyLong_AsSsize_t(PyTuple_GetItem(factors, k));
      if (j == -1 && PyErr_Occurred())
        PyErr_Clear();
      bad = j < 0 || j >= count || !is_int_code(codes[j]);
      out[d].params[k] = j;
    }
    Py_DECREF(factors);
    if (bad) {
      PyErr_Format(PyExc_ValueError,
                   "tensor_maps: parameter %zd: recipe %s[%zd] %R is not a "
                   "64-bit scale and at most %d indices of integer "
                   "parameters",
                   i, what, d, term, RECIPE_MAX_FACTORS);
      goto fail;
    }
  }
  Py_DECREF(items);
  return rank;
fail:
  Py_DECREF(items);
  return -1;
}

/* A recipe (base, shape terms, stride terms), as
 * tile.driver.packing.tensor_map_recipe gives it, into `map`. */
static int parse_recipe(TensorMapParam *map, const char *codes,
                        Py_ssize_t count, Py_ssize_t i, PyObject *recipe) {
  Py_ssize_t base;
  PyObject *shape, *strides;
  if (!PyTuple_Check(recipe) ||
      !PyArg_ParseTuple(recipe, "nOO", &base, &shape, &strides)) {
    PyErr_Clear();
    PyErr_Format(PyExc_ValueError,
                 "tensor_maps: parameter %zd: recipe %R is not (base, shape "
                 "terms, stride terms)",
                 i, recipe);
    return -1;
  }
  if (base < 0 || base >= count || codes[base] != P_PTR) {
    PyErr_Format(PyExc_ValueError,
                 "tensor_maps: parameter %zd: recipe base %zd is not a "
                 "pointer parameter",
                 i, base);
    return -1;
  }
  Py_ssize_t rank =
      parse_recipe_terms(shape, codes, count, i, "shape", map->shape);
  if (rank < 0)
    return -1;
  Py_ssize_t stride_rank =
      parse_recipe_terms(strides, codes, count, i, "strides", map->strides);
  if (stride_rank < 0)
    return -1;
  const RecipeTerm *last = &map->strides[stride_rank - 1];
  if (stride_rank != rank || (map->encoded && rank != (Py_ssize_t)map->rank) ||
      last->scale != 1 || last->count != 0) {
    PyErr_Format(PyExc_ValueError,
                 "tensor_maps: parameter %zd: recipe of %zd extents and %zd "
                 "strides, the last (1, ()), for a box of rank %u (0: none)",
                 i, rank, stride_rank, (unsigned)map->rank);
    return -1;
  }
  if (!map->encoded)
    map->rank = (uint32_t)rank;
  map->recipe = 1;
  map->base = base;
  return 0;
}

/* The "tensormap" parameters of a kernel from its `tensor_maps` argument:
 * None, or one item per parameter: None (no map, or a map the kernel does
 * not read), (box, swizzle, element_bytes) with the box outermost-first, as
 * tile.driver.packing.tensor_map_encoding gives them, or a hidden
 * parameter's (box, swizzle, element_bytes, recipe), the first three None
 * when the kernel does not read the map. `hidden` is the number of recipes:
 * they must be the last parameters. */
static int tensor_map_params(const char *codes, Py_ssize_t count,
                             PyObject *tensor_maps, TensorMapParam **out,
                             Py_ssize_t *out_count, Py_ssize_t *hidden) {
  Py_ssize_t n = 0;
  for (Py_ssize_t i = 0; i < count; i++)
    n += codes[i] == P_TENSOR_MAP;
  *out = NULL;
  *out_count = 0;
  *hidden = 0;
  if (n > MAX_TENSOR_MAPS) {
    PyErr_Format(PyExc_ValueError, "a kernel takes at most %d tensor maps",
                 MAX_TENSOR_MAPS);
    return -1;
  }
  PyObject *items = NULL;
  if (tensor_maps != Py_None) {
    items = PySequence_Tuple(tensor_maps);
    if (!items)
      return -1;
    if (PyTuple_Size(items) != count) {
      Py_DECREF(items);
      PyErr_SetString(PyExc_ValueError,
                      "tensor_maps: one item (or None) per parameter");
      return -1;
    }
  }
  TensorMapParam *maps = NULL;
  if (n) {
    maps = PyMem_Calloc((size_t)n, sizeof(TensorMapParam));
    if (!maps) {
      Py_XDECREF(items);
      PyErr_NoMemory();
      return -1;
    }
  }
  Py_ssize_t m = 0, recipes = 0;
  int needs_encoder = 0;
  for (Py_ssize_t i = 0; i < count; i++) {
    PyObject *item = items ? PyTuple_GetItem(items, i) : Py_None;
    if (codes[i] != P_TENSOR_MAP) {
      if (item != Py_None) {
        PyErr_Format(PyExc_ValueError,
                     "tensor_maps: parameter %zd is not a tensormap", i);
        goto fail;
      }
      continue;
    }
    TensorMapParam *map = &maps[m++];
    map->param = i;
    if (item == Py_None)
      continue;
    PyObject *box, *swizzle, *element, *recipe = Py_None;
    if (!PyArg_ParseTuple(item, "OOO|O", &box, &swizzle, &element, &recipe))
      goto fail;
    if (box != Py_None && parse_encoding(map, i, box, swizzle, element) < 0)
      goto fail;
    needs_encoder |= map->encoded;
    if (recipe != Py_None) {
      if (parse_recipe(map, codes, count, i, recipe) < 0)
        goto fail;
      recipes++;
    }
  }
  /* The runtime fills the parameters from the arguments in order: the
   * hidden ones are the last. */
  for (Py_ssize_t k = 0; k < n; k++)
    if (maps[k].recipe && maps[k].param < count - recipes) {
      PyErr_Format(PyExc_ValueError,
                   "tensor_maps: parameter %zd has a recipe, but a parameter "
                   "after it has none: hidden parameters come last",
                   maps[k].param);
      goto fail;
    }
  if (needs_encoder && !cu_tensor_map_encode_tiled) {
    PyErr_SetString(PyExc_RuntimeError,
                    "the kernel reads tensor maps (TMA), and the CUDA driver "
                    "has no cuTensorMapEncodeTiled (it came with CUDA 12.0)");
    goto fail;
  }
  Py_XDECREF(items);
  *out = maps;
  *out_count = n;
  *hidden = recipes;
  return 0;
fail:
  Py_XDECREF(items);
  PyMem_Free(maps);
  return -1;
}

static int kernel_init(Kernel *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"function",
                          "context",
                          "device",
                          "codes",
                          "threads",
                          "shared",
                          "max_grid",
                          "name",
                          "param_names",
                          "cooperative",
                          "small_grid_function",
                          "small_grid_blocks",
                          "tensor_maps",
                          NULL};
  unsigned long long function, context, small_grid_function = 0;
  PyObject *codes, *max_grid, *name, *param_names, *tensor_maps = Py_None;
  self->cooperative = 0;
  self->small_grid_blocks = 0;
  if (!PyArg_ParseTupleAndKeywords(
          args, kwargs, "KKlSIIOUO|pKKO", names, &function, &context,
          &self->device, &codes, &self->threads, &self->shared, &max_grid,
          &name, &param_names, &self->cooperative, &small_grid_function,
          &self->small_grid_blocks, &tensor_maps))
    return -1;
  if (self->cooperative && !cu_launch_ex) {
    PyErr_SetString(PyExc_RuntimeError,
                    "launch_cooperative_grid needs cuLaunchKernelEx (a CUDA "
                    "driver of 11.8 or later)");
    return -1;
  }
  if (!PyArg_ParseTuple(max_grid, "III", &self->max_grid[0], &self->max_grid[1],
                        &self->max_grid[2]))
    return -1;
  Py_ssize_t count = PyBytes_Size(codes);
  if (count > MAX_PARAMS) {
    PyErr_Format(PyExc_ValueError, "a kernel takes at most %d parameters",
                 MAX_PARAMS);
    return -1;
  }
  const char *text = PyBytes_AsString(codes);
  for (Py_ssize_t i = 0; i < count; i++)
    if (!slot_size(text[i])) {
      PyErr_Format(PyExc_ValueError, "unknown parameter type code %c", text[i]);
      return -1;
    }
  PyObject *names_tuple = PySequence_Tuple(param_names);
  if (!names_tuple)
    return -1;
  if (PyTuple_Size(names_tuple) != count) {
    Py_DECREF(names_tuple);
    PyErr_SetString(PyExc_ValueError, "one name per parameter");
    return -1;
  }
  TensorMapParam *maps = NULL;
  Py_ssize_t map_count = 0, hidden = 0;
  if (tensor_map_params(text, count, tensor_maps, &maps, &map_count, &hidden) <
      0) {
    Py_DECREF(names_tuple);
    return -1;
  }
  PyMem_Free(self->maps);
  self->maps = maps;
  self->map_count = map_count;
  self->hidden = hidden;
  self->function = (CUfunction)(uintptr_t)function;
  self->small_grid_function = (CUfunction)(uintptr_t)small_grid_function;
  self->context = (CUcontext)(uintptr_t)context;
  Py_XSETREF(self->name, Py_NewRef(name));
  Py_XSETREF(self->param_names, names_tuple);
  Py_XSETREF(self->codes_obj, Py_NewRef(codes));
  self->codes = text;
  self->count = count;
  return 0;
}

/* The end of a heap type's tp_dealloc: free the object and drop the
 * reference to its type that it held. */
static void free_heap_instance(PyObject *self) {
  PyTypeObject *type = Py_TYPE(self);
  freefunc tp_free = (freefunc)PyType_GetSlot(type, Py_tp_free);
  tp_free(self);
  Py_DECREF(type);
}

static void kernel_dealloc(Kernel *self) {
  PyMem_Free(self->maps);
  Py_XDECREF(self->name);
  Py_XDECREF(self->param_names);
  Py_XDECREF(self->codes_obj);
  free_heap_instance((PyObject *)self);
}

/* cuLaunchKernelEx only where a launch attribute is needed (cooperative):
 * cuLaunchKernel does the rest, for up to 0.45 us less per launch on the
 * hosts measured (bench/profile_launch.py's C rows; within noise on some). */
static int uses_launch_ex(const Kernel *self) {
  return self->cooperative || !cu_launch;
}

static CUresult launch_now(Kernel *self, const unsigned dims[3],
                           uint64_t stream, void **params) {
  CUfunction function = self->function;
  if (self->small_grid_function &&
      (unsigned long long)dims[0] * dims[1] * dims[2] <=
          self->small_grid_blocks)
    function = self->small_grid_function;
  if (!uses_launch_ex(self))
    return cu_launch(function, dims[0], dims[1], dims[2], self->threads, 1, 1,
                     self->shared, (CUstream)(uintptr_t)stream,
                     self->count ? params : NULL, NULL);
  CUlaunchAttribute cooperative;
  memset(&cooperative, 0, sizeof cooperative);
  cooperative.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
  cooperative.value.cooperative = 1;
  CUlaunchConfig config = {dims[0],
                           dims[1],
                           dims[2],
                           self->threads,
                           1,
                           1,
                           self->shared,
                           (CUstream)(uintptr_t)stream,
                           self->cooperative ? &cooperative : NULL,
                           self->cooperative ? 1u : 0u};
  return cu_launch_ex(&config, function, self->count ? params : NULL, NULL);
}

/* `rank` non-negative ints of a descriptor's `shape` or `strides`. */
static int descriptor_ints(PyObject *value, PyObject *attribute,
                           const Where *where, Py_ssize_t i, uint32_t rank,
                           uint64_t out[TENSOR_MAP_MAX_RANK]) {
  PyObject *sequence = PyObject_GetAttr(value, attribute);
  if (!sequence) {
    PyErr_Clear();
    return set_launch_error(WHERE_FMT ": the descriptor has no %U",
                            WHERE_ARGS(where, i), attribute);
  }
  PyObject *items = PyList_Check(sequence) || PyTuple_Check(sequence)
                        ? Py_NewRef(sequence)
                        : PySequence_Tuple(sequence);
  int status = -1;
  if (!items)
    goto done;
  int list = PyList_Check(items);
  Py_ssize_t n = list ? PyList_Size(items) : PyTuple_Size(items);
  if (n != (Py_ssize_t)rank) {
    set_launch_error(WHERE_FMT ": the descriptor's %U %R has %zd dimensions, "
                               "but the kernel's tensor map has %u",
                     WHERE_ARGS(where, i), attribute, sequence, n,
                     (unsigned)rank);
    goto done;
  }
  for (Py_ssize_t d = 0; d < n; d++) {
    PyObject *item =
        list ? PyList_GetItem(items, d) : PyTuple_GetItem(items, d);
    PyObject *number = PyBool_Check(item) ? NULL : PyNumber_Index(item);
    unsigned long long v = number ? PyLong_AsUnsignedLongLong(number) : 0;
    Py_XDECREF(number);
    if (!number || PyErr_Occurred()) {
      PyErr_Clear();
      set_launch_error(WHERE_FMT ": the descriptor's %U %R are not "
                                 "non-negative 64-bit ints",
                       WHERE_ARGS(where, i), attribute, sequence);
      goto done;
    }
    out[d] = v;
  }
  status = 0;
done:
  Py_XDECREF(items);
  Py_DECREF(sequence);
  return status;
}

static int tensor_map_data_type(unsigned element_bytes) {
  switch (element_bytes) {
  case 1:
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  case 2:
    return CU_TENSOR_MAP_DATA_TYPE_UINT16;
  case 4:
    return CU_TENSOR_MAP_DATA_TYPE_UINT32;
  default:
    return CU_TENSOR_MAP_DATA_TYPE_UINT64;
  }
}

static int tensor_map_swizzle(unsigned swizzle_bytes) {
  switch (swizzle_bytes) {
  case 32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  default:
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

/* "[a, b, c]" of n values into buffer (of `size` bytes). */
static void format_list(char *buffer, size_t size, const uint64_t *values,
                        uint32_t n) {
  size_t used = (size_t)snprintf(buffer, size, "[");
  for (uint32_t k = 0; k < n && used < size; k++)
    used += (size_t)snprintf(buffer + used, size - used, "%s%llu",
                             k ? ", " : "", (unsigned long long)values[k]);
  if (used < size)
    snprintf(buffer + used, size - used, "]");
}

/* Writes the tensor map of parameter i at `address` with `shape` and
 * `strides` (`map->rank` each, outermost first, strides in elements, the
 * last 1) into `out`: from the parameter's cache when it holds a map of the
 * same address, shape and strides, else encoded by the driver and cached.
 * Host descriptors and maps made at launch both come here. */
static int encode_tensor_map(TensorMapParam *map, const Where *where,
                             Py_ssize_t i, uint64_t address,
                             const uint64_t *shape, const uint64_t *strides,
                             TensorMap *out) {
  uint32_t rank = map->rank;
  /* The driver's order: innermost first; strides in bytes, but the last. */
  uint64_t dims[TENSOR_MAP_MAX_RANK], byte_strides[TENSOR_MAP_MAX_RANK];
  for (uint32_t d = 0; d < rank; d++)
    dims[d] = shape[rank - 1 - d];
  for (uint32_t d = 0; d + 1 < rank; d++) {
    uint64_t stride = strides[rank - 2 - d];
    if (stride > UINT64_MAX / map->element_bytes)
      return set_launch_error(WHERE_FMT ": the tensor map's stride %llu "
                                        "(elements) is too large",
                              WHERE_ARGS(where, i), (unsigned long long)stride);
    byte_strides[d] = stride * map->element_bytes;
  }
  for (int w = 0; w < TENSOR_MAP_CACHE_WAYS; w++) {
    const TensorMapEntry *entry = &map->cache[w];
    if (entry->valid && entry->address == address &&
        memcmp(entry->dims, dims, rank * sizeof(uint64_t)) == 0 &&
        memcmp(entry->strides, byte_strides, (rank - 1) * sizeof(uint64_t)) ==
            0) {
      memcpy(out->bytes, entry->bytes, TENSOR_MAP_BYTES);
      return 0;
    }
  }
  if (!cu_tensor_map_encode_tiled)
    return set_launch_error(WHERE_FMT ": the kernel reads a tensor map (TMA), "
                                      "and the CUDA driver has no "
                                      "cuTensorMapEncodeTiled (CUDA 12.0 and "
                                      "later have it)",
                            WHERE_ARGS(where, i));
  static const uint32_t element_strides[TENSOR_MAP_MAX_RANK] = {1, 1, 1, 1, 1};
  CUresult code = cu_tensor_map_encode_tiled(
      out, tensor_map_data_type(map->element_bytes), rank,
      (void *)(uintptr_t)address, dims, byte_strides, map->box, element_strides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, tensor_map_swizzle(map->swizzle_bytes),
      CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (code != 0) {
    char dims_text[128], strides_text[128], box_text[128];
    uint64_t box[TENSOR_MAP_MAX_RANK];
    for (uint32_t d = 0; d < rank; d++)
      box[d] = map->box[d];
    format_list(dims_text, sizeof dims_text, dims, rank);
    format_list(strides_text, sizeof strides_text, byte_strides, rank - 1);
    format_list(box_text, sizeof box_text, box, rank);
    char text[640];
    snprintf(text, sizeof text,
             "rank %u, globalAddress 0x%llx, globalDim %s, globalStrides %s "
             "bytes, boxDim %s (each innermost first), %u-byte elements, "
             "swizzle %u bytes",
             (unsigned)rank, (unsigned long long)address, dims_text,
             strides_text, box_text, map->element_bytes, map->swizzle_bytes);
    PyObject *hint =
        PyUnicode_FromFormat(WHERE_FMT ": %s", WHERE_ARGS(where, i), text);
    raise_cuda("cuTensorMapEncodeTiled", code, hint);
    Py_XDECREF(hint);
    return -1;
  }
  TensorMapEntry *entry = &map->cache[map->next];
  map->next = (map->next + 1) % TENSOR_MAP_CACHE_WAYS;
  entry->valid = 1;
  entry->address = address;
  memcpy(entry->dims, dims, rank * sizeof(uint64_t));
  memcpy(entry->strides, byte_strides, (rank - 1) * sizeof(uint64_t));
  memcpy(entry->bytes, out->bytes, TENSOR_MAP_BYTES);
  return 0;
}

/* Writes the tensor map of descriptor `value` (parameter i) into `out`. */
static int pack_tensor_map(TensorMapParam *map, PyObject *value,
                           const Where *where, Py_ssize_t i, long device,
                           TensorMap *out) {
  PyObject *base = PyObject_GetAttr(value, s_base);
  if (!base) {
    PyErr_Clear();
    PyObject *described = describe_type(value);
    set_launch_error(WHERE_FMT ": expected a TensorDescriptor (its base, "
                               "shape and strides make the tensor map), got %U",
                     WHERE_ARGS(where, i), described);
    Py_XDECREF(described);
    return -1;
  }
  uint64_t address;
  int status = pointer_value(base, where, i, device, &address);
  Py_DECREF(base);
  uint32_t rank = map->rank;
  uint64_t shape[TENSOR_MAP_MAX_RANK], strides[TENSOR_MAP_MAX_RANK];
  if (status < 0 ||
      descriptor_ints(value, s_shape, where, i, rank, shape) < 0 ||
      descriptor_ints(value, s_strides, where, i, rank, strides) < 0)
    return -1;
  if (strides[rank - 1] != 1)
    return set_launch_error(WHERE_FMT ": the descriptor's last stride is "
                                      "%llu; a tensor map needs 1",
                            WHERE_ARGS(where, i),
                            (unsigned long long)strides[rank - 1]);
  return encode_tensor_map(map, where, i, address, shape, strides, out);
}

/* The value of integer parameter j as the kernel receives it: its packed
 * slot, sign-extended. */
static int64_t packed_int(char code, const uint64_t *slot) {
  switch (code) {
  case P_I1:
  case P_I8: {
    int8_t x;
    memcpy(&x, slot, 1);
    return x;
  }
  case P_I16: {
    int16_t x;
    memcpy(&x, slot, 2);
    return x;
  }
  case P_I32: {
    int32_t x;
    memcpy(&x, slot, 4);
    return x;
  }
  default: {
    int64_t x;
    memcpy(&x, slot, 8);
    return x;
  }
  }
}

/* "2 * M * K = 2 * 3 * 64" of a recipe term, for messages, and " = value"
 * after it where `value` is not NULL; "M = 3" of a lone parameter, "2" of
 * a constant. */
static PyObject *describe_term(const Kernel *self, const RecipeTerm *term,
                               const uint64_t *slots, const int64_t *value) {
  int scaled = term->scale != 1 || term->count == 0;
  PyObject *names = scaled
                        ? PyUnicode_FromFormat("%lld", (long long)term->scale)
                        : PyUnicode_FromString("");
  PyObject *values = scaled
                         ? PyUnicode_FromFormat("%lld", (long long)term->scale)
                         : PyUnicode_FromString("");
  for (unsigned k = 0; names && values && k < term->count; k++) {
    Py_ssize_t j = term->params[k];
    const char *times = scaled || k ? " * " : "";
    Py_SETREF(names,
              PyUnicode_FromFormat("%U%s%U", names, times,
                                   PyTuple_GetItem(self->param_names, j)));
    if (!names)
      break;
    Py_SETREF(values, PyUnicode_FromFormat(
                          "%U%s%lld", values, times,
                          (long long)packed_int(self->codes[j], &slots[j])));
  }
  PyObject *text = NULL;
  if (names && values) {
    if (term->count == 0)
      text = Py_NewRef(names);
    else if (!scaled && term->count == 1)
      text = PyUnicode_FromFormat("%U = %U", names, values);
    else if (value)
      text = PyUnicode_FromFormat("%U = %U = %lld", names, values,
                                  (long long)*value);
    else
      text = PyUnicode_FromFormat("%U = %U", names, values);
  }
  Py_XDECREF(names);
  Py_XDECREF(values);
  return text;
}

/* Extent (`extent` 1) or stride `d` of a map made at launch: its term's
 * product in 64 bits; an extent positive, a stride not negative. */
static int recipe_value(const Kernel *self, const TensorMapParam *map,
                        const Where *where, int extent, uint32_t d,
                        const uint64_t *slots, uint64_t *out) {
  const RecipeTerm *term = extent ? &map->shape[d] : &map->strides[d];
  int64_t value = term->scale;
  int overflow = 0;
  for (unsigned k = 0; !overflow && k < term->count; k++) {
    Py_ssize_t j = term->params[k];
    overflow = __builtin_mul_overflow(
        value, packed_int(self->codes[j], &slots[j]), &value);
  }
  if (!overflow && (extent ? value > 0 : value >= 0)) {
    *out = (uint64_t)value;
    return 0;
  }
  PyObject *text = describe_term(self, term, slots, overflow ? NULL : &value);
  if (!text)
    return -1;
  Py_ssize_t i = map->param;
  set_launch_error(WHERE_FMT ": %s[%u] (outermost first) of the tensor map "
                             "made at launch is %U%s",
                   WHERE_ARGS(where, i), extent ? "shape" : "strides",
                   (unsigned)d, text,
                   overflow ? ", past 64 bits"
                   : extent ? "; its extents must be positive"
                            : "; its strides must not be negative");
  Py_DECREF(text);
  return -1;
}

/* Writes the tensor map of hidden parameter `map->param` into `out`, made
 * from the parameters its recipe names, already packed in `slots` (so their
 * values are those the kernel gets, their pointers checked as any). */
static int pack_recipe_tensor_map(const Kernel *self, TensorMapParam *map,
                                  const Where *where, const uint64_t *slots,
                                  TensorMap *out) {
  uint64_t address, shape[TENSOR_MAP_MAX_RANK], strides[TENSOR_MAP_MAX_RANK];
  memcpy(&address, &slots[map->base], 8);
  for (uint32_t d = 0; d < map->rank; d++)
    if (recipe_value(self, map, where, 1, d, slots, &shape[d]) < 0 ||
        recipe_value(self, map, where, 0, d, slots, &strides[d]) < 0)
      return -1;
  return encode_tensor_map(map, where, map->param, address, shape, strides,
                           out);
}

/* Enqueues the kernel: `values[i]` for parameter i, probes (may be NULL)
 * with pointer values found already. */
static PyObject *kernel_enqueue(Kernel *self, const unsigned dims[3],
                                uint64_t stream, PyObject *const *values,
                                const Probe *probes, int check_device) {
  if (!cu_launch_ex && !cu_launch) {
    PyErr_SetString(PyExc_RuntimeError,
                    "tile._launcher is not configured with the CUDA driver");
    return NULL;
  }
  uint64_t slots[MAX_PARAMS > 0 ? MAX_PARAMS : 1];
  void *params[MAX_PARAMS > 0 ? MAX_PARAMS : 1];
  /* This launch's tensor maps (the cache may change under a later
   * parameter's packing, which can run Python). */
  TensorMap maps[MAX_TENSOR_MAPS];
  Py_ssize_t m = 0;
  Where where = {self->name, self->param_names, self->codes};
  long device = check_device ? self->device : -1;
  for (Py_ssize_t i = 0; i < self->count; i++) {
    if (self->codes[i] == P_TENSOR_MAP) {
      TensorMapParam *map = &self->maps[m];
      if (map->recipe) {
        /* Made below, from the parameters once packed. */
        if (values[i] != Py_None) {
          PyObject *described = describe_type(values[i]);
          set_launch_error(WHERE_FMT ": the launcher makes this tensor map "
                                     "(of a descriptor or block pointer the "
                                     "kernel makes) from the kernel's other "
                                     "arguments: pass None or leave it out, "
                                     "not %U",
                           WHERE_ARGS(&where, i), described);
          Py_XDECREF(described);
          return NULL;
        }
        params[i] = map->encoded ? (void *)&maps[m] : (void *)&zero_tensor_map;
      } else if (!map->encoded) {
        params[i] = &zero_tensor_map;
      } else {
        if (pack_tensor_map(map, values[i], &where, i, device, &maps[m]) < 0)
          return NULL;
        params[i] = &maps[m];
      }
      m++;
      continue;
    }
    if (pack_one(values[i], &where, i, device, probes ? &probes[i] : NULL,
                 &slots[i]) < 0)
      return NULL;
    params[i] = &slots[i];
  }
  for (Py_ssize_t k = 0; self->hidden && k < self->map_count; k++) {
    TensorMapParam *map = &self->maps[k];
    if (map->recipe && map->encoded &&
        pack_recipe_tensor_map(self, map, &where, slots, &maps[k]) < 0)
      return NULL;
  }
  /* Launch in the kernel's context. Nearly every launch finds it current
   * (torch made it so), and the driver refuses a function of a context that
   * is not current (CUDA_ERROR_INVALID_CONTEXT when none is, as in a new
   * thread; that or CUDA_ERROR_INVALID_HANDLE under another context, which
   * test/gpu/test_launcher.py makes): only then is
   * the current context asked for, and the kernel's made current for the
   * launch and the other one restored after it, as a device guard does, so
   * that torch's current device stays as it was. Asking first costs every
   * launch a driver call (bench/profile_launch.py's C rows: 0 to 0.3 us on the
   * H100 hosts). */
  CUresult code = launch_now(self, dims, stream, params);
  if ((code == CUDA_ERROR_INVALID_CONTEXT ||
       code == CUDA_ERROR_INVALID_HANDLE) &&
      cu_ctx_get_current && cu_ctx_set_current) {
    CUcontext previous = NULL;
    if (cu_ctx_get_current(&previous) != 0)
      previous = NULL;
    if (previous != self->context && cu_ctx_set_current(self->context) == 0) {
      code = launch_now(self, dims, stream, params);
      if (previous)
        cu_ctx_set_current(previous);
    }
  }
  if (code != 0) {
    PyObject *hint = PyUnicode_FromFormat(
        "kernel '%U', grid (%u, %u, %u), block (%u, 1, 1)", self->name, dims[0],
        dims[1], dims[2], self->threads);
    raise_cuda(uses_launch_ex(self) ? "cuLaunchKernelEx" : "cuLaunchKernel",
               code, hint);
    Py_XDECREF(hint);
    return NULL;
  }
  Py_RETURN_NONE;
}

static PyObject *kernel_launch(Kernel *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"grid", "args", "stream", NULL};
  PyObject *grid, *values, *stream = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|O", names, &grid, &values,
                                   &stream))
    return NULL;
  PyObject *items = PySequence_Tuple(values);
  if (!items)
    return NULL;
  PyObject *result = NULL;
  Py_ssize_t n = PyTuple_Size(items);
  /* The hidden parameters (maps made at launch) may be left out. */
  Py_ssize_t given = self->count - self->hidden;
  if (n != self->count && n != given) {
    PyObject *expected = PyUnicode_FromString("");
    for (Py_ssize_t i = 0; expected && i < given; i++)
      Py_SETREF(expected,
                PyUnicode_FromFormat("%U%s%U: %s", expected, i ? ", " : "",
                                     PyTuple_GetItem(self->param_names, i),
                                     type_name(self->codes[i])));
    if (expected && self->hidden)
      set_launch_error("kernel '%U' takes %zd arguments (%U), and may take "
                       "None for each of its %zd tensor maps made at launch "
                       "after them; got %zd",
                       self->name, given, expected, self->hidden, n);
    else if (expected)
      set_launch_error("kernel '%U' takes %zd arguments (%U), got %zd",
                       self->name, self->count, expected, n);
    Py_XDECREF(expected);
    goto done;
  }
  unsigned dims[3];
  uint64_t handle;
  if (parse_grid(grid, self->max_grid, dims) < 0 ||
      stream_value(stream, self->device, &handle) < 0)
    goto done;
  PyObject *array[MAX_PARAMS > 0 ? MAX_PARAMS : 1];
  for (Py_ssize_t i = 0; i < self->count; i++)
    array[i] = i < n ? PyTuple_GetItem(items, i) : Py_None;
  result = kernel_enqueue(self, dims, handle, array, NULL, 1);
done:
  Py_DECREF(items);
  return result;
}

static PyObject *kernel_get_device(Kernel *self, void *closure) {
  (void)closure;
  return PyLong_FromLong(self->device);
}

static PyMethodDef kernel_methods[] = {
    {"launch", (PyCFunction)(void (*)(void))kernel_launch,
     METH_VARARGS | METH_KEYWORDS,
     "launch(grid, args, stream=None): enqueue one launch"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef kernel_getset[] = {
    {"device", (getter)kernel_get_device, NULL, "the device ordinal", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

/* Type docstrings (writable arrays: Py_tp_doc takes a void *). */
static char kernel_doc[] =
    "Kernel(function, context, device, codes, threads, shared, "
    "max_grid, name, param_names, cooperative=False, small_grid_function=0, "
    "small_grid_blocks=0, tensor_maps=None): one loaded kernel; "
    "tensor_maps has per parameter None, (box, swizzle, element_bytes) or, "
    "for a map made at launch, those (or None each) and (base, shape terms, "
    "stride terms)";
static char dispatcher_doc[] =
    "Dispatcher(name, arg_names, constexpr, defaults, slow_path): "
    "the launch cache of one @jit function; d[grid](*args)";
static char bound_doc[] =
    "a launch of a dispatcher on one grid: call it with the "
    "kernel's arguments";

static PyType_Slot kernel_slots[] = {{Py_tp_new, PyType_GenericNew},
                                     {Py_tp_init, kernel_init},
                                     {Py_tp_dealloc, kernel_dealloc},
                                     {Py_tp_methods, kernel_methods},
                                     {Py_tp_getset, kernel_getset},
                                     {Py_tp_doc, kernel_doc},
                                     {0, NULL}};

static PyType_Spec kernel_spec = {"tile._launcher.Kernel", sizeof(Kernel), 0,
                                  Py_TPFLAGS_DEFAULT, kernel_slots};

/* ------------------------------------------------------------------------ */
/* Dispatcher: the JIT launch path                                           */
/* ------------------------------------------------------------------------ */

/* Key codes of argument kinds (ints that no other key element equals: flags
 * are 0/1, dtypes and type objects are not ints). */
/* Arguments of one launch, and parameters of one @jit function, at most. */
#define MAX_ARGS 256
/* Items of a launch's key, at most: three per argument, the device and the
 * count. */
#define MAX_KEY_ITEMS (3 * MAX_ARGS + 2)

/* Where a kernel parameter's value comes from in a launch: positional
 * argument `positional` (>= 0), keyword argument `keyword` (>= 0, in call
 * order), or else `value` (a default, or None for a hidden parameter;
 * borrowed from its entry). */
typedef struct {
  Py_ssize_t positional, keyword;
  PyObject *value;
} Source;

/* An entry, (kernel, sources), read into C once: the kernel (borrowed) and
 * one Source per kernel parameter. */
typedef struct {
  Kernel *kernel;
  Py_ssize_t count;
  Source sources[MAX_PARAMS > 0 ? MAX_PARAMS : 1];
} ParsedEntry;

enum {
  CODE_BOOL = 2,
  CODE_FLOAT = 3,
  CODE_INT = 0x100, /* | 1: fits i32, | 2: == 1, | 4: % 16 == 0 */
};

typedef struct {
  PyObject_HEAD PyObject
      *arg_names;        /* tuple of str: the function's parameters */
  PyObject *defaults;    /* dict: name -> default */
  PyObject *slow_path;   /* callable(grid, args, kwargs, key, device) */
  PyObject *interpreted; /* callable(grid) -> interpreted launch, or None */
  PyObject *entries;     /* dict: key -> Entry tuple */
  /* The last key found or added (a strong reference, so that its items stay
   * alive: a call whose key items are the same objects, the common case of
   * a loop launching one kernel, takes its entry without building the key
   * tuple, hashing it and looking it up), and that entry. */
  PyObject *last_key, *last_entry;
  /* The last key's items and the last entry read into C (where they are
   * compared and read on every launch, without the limited API's calls). */
  PyObject *last_items[MAX_KEY_ITEMS];
  Py_ssize_t last_n;
  ParsedEntry last_parsed;
  PyObject *name; /* str */
  Py_ssize_t count;
  /* arg_names' items (borrowed) and the constexpr flags, as C arrays. */
  PyObject *names[MAX_ARGS];
  char constexpr_flags[MAX_ARGS];
  /* Whether the function has a parameter named `stream` (then `stream=` is
   * its argument, not the launch's stream). */
  int stream_parameter;
  PyObject *small_ints[8]; /* CODE_INT | facts */
  PyObject *code_bool, *code_float;
  /* The last bound launch made on a tuple grid (a Bound): `d[grid]` gives
   * it again while nothing else holds it and its grid is the same object,
   * as in a loop that launches `kernel[grid](...)`, without making and
   * freeing one. */
  PyObject *spare;
} Dispatcher;

/* An entry: (kernel, sources) where sources[i] says where parameter i of the
 * kernel comes from: an int j >= 0 is positional argument j, -1-j is the
 * j-th keyword argument of the call, a 1-tuple holds the value itself (a
 * default: wrapped, as it may be an int), and any other object is the value
 * (None for a hidden parameter, a tensor map made at launch). */

static PyTypeObject *DispatcherType;
static PyTypeObject *BoundType;

static Py_ssize_t find_name(Dispatcher *self, PyObject *name);

static int dispatcher_init(Dispatcher *self, PyObject *args, PyObject *kwargs) {
  static char *names[] = {"name",      "arg_names",   "constexpr", "defaults",
                          "slow_path", "interpreted", NULL};
  PyObject *name, *arg_names, *constexpr, *defaults, *slow_path,
      *interpreted = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "UOOO!O|O", names, &name,
                                   &arg_names, &constexpr, &PyDict_Type,
                                   &defaults, &slow_path, &interpreted))
    return -1;
  PyObject *names_tuple = PySequence_Tuple(arg_names);
  PyObject *flags = PySequence_Tuple(constexpr);
  PyObject *entries = PyDict_New();
  if (!names_tuple || !flags || !entries ||
      PyTuple_Size(names_tuple) != PyTuple_Size(flags)) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_ValueError, "one constexpr flag per parameter");
    Py_XDECREF(names_tuple);
    Py_XDECREF(flags);
    Py_XDECREF(entries);
    return -1;
  }
  Py_ssize_t count = PyTuple_Size(names_tuple);
  if (count > MAX_ARGS)
    PyErr_Format(PyExc_ValueError,
                 "%U: a @jit function takes at most %d parameters, not %zd",
                 name, MAX_ARGS, count);
  char constexpr_flags[MAX_ARGS];
  for (Py_ssize_t i = 0; i < count && !PyErr_Occurred(); i++)
    constexpr_flags[i] = (char)(PyObject_IsTrue(PyTuple_GetItem(flags, i)) > 0);
  Py_DECREF(flags);
  if (PyErr_Occurred()) {
    Py_DECREF(names_tuple);
    Py_DECREF(entries);
    return -1;
  }
  for (Py_ssize_t i = 0; i < count; i++) {
    self->names[i] = PyTuple_GetItem(names_tuple, i); /* kept by arg_names */
    self->constexpr_flags[i] = constexpr_flags[i];
  }
  Py_XSETREF(self->name, Py_NewRef(name));
  Py_XSETREF(self->arg_names, names_tuple);
  Py_XSETREF(self->defaults, Py_NewRef(defaults));
  Py_XSETREF(self->slow_path, Py_NewRef(slow_path));
  Py_XSETREF(self->interpreted, Py_NewRef(interpreted));
  Py_XSETREF(self->entries, entries);
  self->count = count;
  for (int k = 0; k < 8; k++) {
    Py_XSETREF(self->small_ints[k], PyLong_FromLong(CODE_INT | k));
    if (!self->small_ints[k])
      return -1;
  }
  Py_XSETREF(self->code_bool, PyLong_FromLong(CODE_BOOL));
  Py_XSETREF(self->code_float, PyLong_FromLong(CODE_FLOAT));
  if (!self->code_bool || !self->code_float)
    return -1;
  self->stream_parameter = find_name(self, s_stream) >= 0;
  self->last_n = -1;
  return 0;
}

/* The garbage collector's view of a dispatcher: its slow path and
 * interpreted launch hold the @jit function, which holds the dispatcher, so
 * without it a function that ever launched would never be freed. */
static int dispatcher_traverse(Dispatcher *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE((PyObject *)self));
  Py_VISIT(self->defaults);
  Py_VISIT(self->slow_path);
  Py_VISIT(self->interpreted);
  Py_VISIT(self->entries);
  Py_VISIT(self->last_key);
  Py_VISIT(self->last_entry);
  Py_VISIT(self->spare);
  return 0;
}

/* Drops every reference; dispatch() refuses a dispatcher without entries
 * (one cleared, or never initialized). */
static int dispatcher_clear_references(Dispatcher *self) {
  self->last_n = -1;
  Py_CLEAR(self->arg_names);
  Py_CLEAR(self->defaults);
  Py_CLEAR(self->slow_path);
  Py_CLEAR(self->interpreted);
  Py_CLEAR(self->entries);
  Py_CLEAR(self->last_key);
  Py_CLEAR(self->last_entry);
  Py_CLEAR(self->name);
  for (int k = 0; k < 8; k++)
    Py_CLEAR(self->small_ints[k]);
  Py_CLEAR(self->code_bool);
  Py_CLEAR(self->code_float);
  Py_CLEAR(self->spare);
  return 0;
}

static void dispatcher_dealloc(Dispatcher *self) {
  PyObject_GC_UnTrack(self);
  dispatcher_clear_references(self);
  free_heap_instance((PyObject *)self);
}

/* Key-building state of one call. */
typedef struct {
  PyObject *items[MAX_KEY_ITEMS];
  Py_ssize_t n;
  int cacheable;          /* 0: some value has no key; take the slow path */
  long device;            /* of the tensors; -1 none yet */
  Py_ssize_t device_arg;  /* which argument set it */
  PyObject *device_name;  /* its name (borrowed) */
  Probe probes[MAX_ARGS]; /* per call argument (positional, then keyword) */
} KeyBuilder;

static void key_push(KeyBuilder *kb, PyObject *borrowed) {
  kb->items[kb->n++] = borrowed;
}

static int note_device(Dispatcher *self, KeyBuilder *kb, long device,
                       PyObject *arg_name) {
  if (kb->device < 0) {
    kb->device = device;
    kb->device_name = arg_name;
    return 0;
  }
  if (kb->device == device)
    return 0;
  return set_launch_error(
      "%U: argument '%U' is on cuda:%ld but argument '%U' is on cuda:%ld; "
      "all tensors of one launch must be on one device",
      self->name, kb->device_name, kb->device, arg_name, device);
}

/* Pushes the key elements of one runtime argument and probes its pointer. */
static int key_runtime(Dispatcher *self, KeyBuilder *kb, PyObject *value,
                       PyObject *arg_name, Probe *probe) {
  probe->known = 0;
  if (PyLong_CheckExact(value)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow) {
      kb->cacheable = 0; /* beyond i64: the slow path says what is wrong */
      return 0;
    }
    int facts = (v >= INT32_MIN && v <= INT32_MAX) | (v == 1) << 1 |
                (v != 1 && v % 16 == 0) << 2;
    key_push(kb, self->small_ints[facts]);
    return 0;
  }
  if (PyFloat_CheckExact(value)) {
    key_push(kb, self->code_float);
    return 0;
  }
  if (PyBool_Check(value)) {
    key_push(kb, self->code_bool);
    return 0;
  }
  int kind = value_kind(value);
  if (kind < 0)
    return -1;
  if (kind == KIND_TENSOR) {
    long device;
    if (tensor_device(value, &device) < 0)
      return -1;
    if (device < 0) { /* a CPU tensor: the slow path explains */
      kb->cacheable = 0;
      return 0;
    }
    if (note_device(self, kb, device, arg_name) < 0)
      return -1;
    if (tensor_address(value, &probe->address) < 0)
      return -1;
    probe->known = 1;
    PyObject *dtype = PyObject_GetAttr(value, s_dtype);
    if (!dtype)
      return -1;
    /* dtypes are long-lived singletons: borrow it for the key. */
    key_push(kb, dtype);
    Py_DECREF(dtype);
    key_push(kb, probe->address % 16 == 0 ? Py_True : Py_False);
    return 0;
  }
  if (kind == KIND_CAI) {
    PyObject *typestr = NULL;
    if (cai_fields(value, &probe->address, &typestr) < 0)
      return -1;
    probe->known = 1;
    key_push(kb, typestr);
    key_push(kb, probe->address % 16 == 0 ? Py_True : Py_False);
    return 2; /* typestr (items[n - 2]) is a new reference: the caller owns it
               */
  }
  kb->cacheable = 0;
  return 0;
}

/* A constexpr (or option) value goes into the key with its type, so that
 * True and 1, or 1 and 1.0, stay apart. */
static int key_constant(KeyBuilder *kb, PyObject *value) {
  Py_hash_t hash = PyObject_Hash(value);
  if (hash == -1) {
    PyErr_Clear();
    kb->cacheable = 0;
    return 0;
  }
  key_push(kb, value);
  key_push(kb, (PyObject *)Py_TYPE(value));
  return 0;
}

static Py_ssize_t find_name(Dispatcher *self, PyObject *name) {
  for (Py_ssize_t i = 0; i < self->count; i++)
    if (self->names[i] == name)
      return i;
  for (Py_ssize_t i = 0; i < self->count; i++) {
    int equal = PyObject_RichCompareBool(self->names[i], name, Py_EQ);
    if (equal < 0) {
      PyErr_Clear();
      return -1;
    }
    if (equal)
      return i;
  }
  return -1;
}

/* One call's arguments: positional ones, then its keyword arguments but a
 * launch's `stream=` (names and values, in call order). */
typedef struct {
  PyObject *const *args;
  Py_ssize_t nargs;
  PyObject *kw_names[MAX_ARGS];
  PyObject *kw_values[MAX_ARGS];
  Py_ssize_t nkw;
} CallArguments;

/* The named arguments of the call, for grid lambdas: defaults, then the
 * call's positional and keyword arguments. */
static PyObject *named_arguments(Dispatcher *self, const CallArguments *call) {
  PyObject *named = PyDict_Copy(self->defaults);
  if (!named)
    return NULL;
  for (Py_ssize_t i = 0; i < call->nargs && i < self->count; i++)
    if (PyDict_SetItem(named, self->names[i], call->args[i]) < 0) {
      Py_DECREF(named);
      return NULL;
    }
  for (Py_ssize_t j = 0; j < call->nkw; j++)
    if (PyDict_SetItem(named, call->kw_names[j], call->kw_values[j]) < 0) {
      Py_DECREF(named);
      return NULL;
    }
  return named;
}

/* The call as Python takes it: a tuple and a dict (None without keywords). */
static int call_objects(const CallArguments *call, PyObject **args,
                        PyObject **kwargs) {
  *args = PyTuple_New(call->nargs);
  *kwargs = call->nkw ? PyDict_New() : Py_NewRef(Py_None);
  if (!*args || !*kwargs)
    goto fail;
  for (Py_ssize_t i = 0; i < call->nargs; i++)
    PyTuple_SetItem(*args, i, Py_NewRef(call->args[i]));
  for (Py_ssize_t j = 0; j < call->nkw; j++)
    if (PyDict_SetItem(*kwargs, call->kw_names[j], call->kw_values[j]) < 0)
      goto fail;
  return 0;
fail:
  Py_CLEAR(*args);
  Py_CLEAR(*kwargs);
  return -1;
}

/* Reads an entry into C, checking its form; -1 with an error if wrong. */
static int parse_entry(PyObject *entry, ParsedEntry *out) {
  PyObject *kernel = PyTuple_Check(entry) && PyTuple_Size(entry) == 2
                         ? PyTuple_GetItem(entry, 0)
                         : NULL;
  PyObject *sources = kernel ? PyTuple_GetItem(entry, 1) : NULL;
  if (!kernel || !sources || !PyTuple_Check(sources) ||
      !PyObject_TypeCheck(kernel, KernelType)) {
    PyErr_Clear();
    PyErr_SetString(PyExc_TypeError, "a dispatcher entry is (Kernel, sources)");
    return -1;
  }
  out->kernel = (Kernel *)kernel;
  out->count = PyTuple_Size(sources);
  if (out->count != out->kernel->count) {
    PyErr_SetString(PyExc_ValueError, "one source per kernel parameter");
    return -1;
  }
  for (Py_ssize_t i = 0; i < out->count; i++) {
    PyObject *source = PyTuple_GetItem(sources, i);
    Source *to = &out->sources[i];
    to->positional = to->keyword = -1;
    to->value = source;
    if (PyLong_CheckExact(source)) {
      long j = PyLong_AsLong(source);
      if (j == -1 && PyErr_Occurred())
        return -1;
      if (j >= MAX_ARGS || j < -MAX_ARGS) {
        PyErr_SetString(PyExc_ValueError,
                        "a dispatcher source is out of range");
        return -1;
      }
      if (j >= 0)
        to->positional = j;
      else
        to->keyword = -1 - j;
    } else if (PyTuple_Check(source) && PyTuple_Size(source) == 1) {
      to->value = PyTuple_GetItem(source, 0); /* a default value */
    }
  }
  return 0;
}

/* Makes (key, entry) the last ones, their items and sources read into C. */
static int remember(Dispatcher *self, PyObject *key, PyObject *entry) {
  Py_ssize_t n = PyTuple_Size(key); /* at most MAX_KEY_ITEMS (KeyBuilder) */
  self->last_n = -1; /* nothing matches while this is half made */
  Py_XSETREF(self->last_key, Py_NewRef(key));
  Py_XSETREF(self->last_entry, Py_NewRef(entry));
  if (parse_entry(entry, &self->last_parsed) < 0)
    return -1;
  if (n > MAX_KEY_ITEMS)
    return 0; /* not kept: last_entry matches nothing */
  for (Py_ssize_t i = 0; i < n; i++)
    self->last_items[i] = PyTuple_GetItem(key, i);
  self->last_n = n;
  return 0;
}

/* The last entry, where this call's key items are the last key's objects. */
static PyObject *last_entry(Dispatcher *self, const KeyBuilder *kb) {
  if (self->last_n != kb->n ||
      memcmp(self->last_items, kb->items, kb->n * sizeof kb->items[0]) != 0)
    return NULL;
  return Py_NewRef(self->last_entry);
}

static PyObject *too_many_arguments(Dispatcher *self, Py_ssize_t given) {
  set_launch_error("%U: a launch takes at most %d arguments, got %zd",
                   self->name, MAX_ARGS, given);
  return NULL;
}

/* A launch: positional arguments args[0, nargs), then the values of the
 * keywords kwnames names (vectorcall's convention). */
static PyObject *dispatch(Dispatcher *self, PyObject *grid,
                          PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames) {
  PyObject *stream = NULL, *result = NULL, *key = NULL, *entry = NULL;
  PyObject *owned[MAX_ARGS + 2]; /* typestrs, the device and the count */
  Py_ssize_t owned_n = 0;
  KeyBuilder kb;
  kb.n = 0;
  kb.cacheable = 1;
  kb.device = -1;
  kb.device_arg = -1;
  kb.device_name = NULL;
  if (!self->entries) {
    PyErr_SetString(PyExc_TypeError, "the dispatcher is not initialized");
    return NULL;
  }

  Py_ssize_t given_kw = kwnames ? PyTuple_Size(kwnames) : 0;
  if (nargs + given_kw > MAX_ARGS)
    return too_many_arguments(self, nargs + given_kw);
  CallArguments call;
  call.args = args;
  call.nargs = nargs;
  call.nkw = 0;
  for (Py_ssize_t j = 0; j < given_kw; j++) {
    PyObject *name = PyTuple_GetItem(kwnames, j);
    /* `stream=` is the launch's stream unless the kernel has a parameter of
     * that name. */
    if (!self->stream_parameter &&
        (name == s_stream || PyUnicode_Compare(name, s_stream) == 0)) {
      stream = args[nargs + j];
      continue;
    }
    call.kw_names[call.nkw] = name;
    call.kw_values[call.nkw++] = args[nargs + j];
  }
  if (nargs > self->count)
    kb.cacheable = 0;

  /* Positional arguments. */
  for (Py_ssize_t i = 0; kb.cacheable && i < nargs; i++) {
    PyObject *value = args[i];
    if (self->constexpr_flags[i]) {
      key_constant(&kb, value);
      continue;
    }
    int status = key_runtime(self, &kb, value, self->names[i], &kb.probes[i]);
    if (status < 0)
      goto done;
    if (status == 2)
      owned[owned_n++] = kb.items[kb.n - 2];
  }
  /* Keyword arguments, in call order: name, then its code or value. */
  for (Py_ssize_t j = 0; kb.cacheable && j < call.nkw; j++) {
    PyObject *name = call.kw_names[j], *value = call.kw_values[j];
    key_push(&kb, name);
    Py_ssize_t index = find_name(self, name);
    if (index >= 0 && index < nargs) {
      kb.cacheable = 0; /* given twice: the slow path raises */
    } else if (index >= 0 && !self->constexpr_flags[index]) {
      int status = key_runtime(self, &kb, value, name, &kb.probes[nargs + j]);
      if (status < 0)
        goto done;
      if (status == 2)
        owned[owned_n++] = kb.items[kb.n - 2];
    } else {
      key_constant(&kb, value); /* a constexpr, or an option (num_warps) */
    }
  }
  if (kb.device < 0 && !device_query) {
    /* Not configured yet (no kernel was loaded): the slow path binds the
     * arguments first and finds the device itself. */
    kb.cacheable = 0;
  } else if (kb.device < 0) {
    /* No tensor argument: the current device. */
    PyObject *current = PyObject_CallNoArgs(device_query);
    if (!current)
      goto done;
    kb.device = PyLong_AsLong(current);
    Py_DECREF(current);
    if (kb.device == -1 && PyErr_Occurred())
      goto done;
  }
  PyObject *device_obj = PyLong_FromLong(kb.device);
  if (!device_obj)
    goto done;
  owned[owned_n++] = device_obj;
  key_push(&kb, device_obj);
  PyObject *nargs_obj = PyLong_FromSsize_t(nargs);
  if (!nargs_obj)
    goto done;
  owned[owned_n++] = nargs_obj;
  key_push(&kb, nargs_obj);

  if (kb.cacheable)
    entry = last_entry(self, &kb);
  if (kb.cacheable && !entry) {
    key = PyTuple_New(kb.n);
    if (!key)
      goto done;
    for (Py_ssize_t i = 0; i < kb.n; i++)
      PyTuple_SetItem(key, i, Py_NewRef(kb.items[i]));
    entry = PyDict_GetItemWithError(self->entries, key);
    if (!entry && PyErr_Occurred())
      goto done;
    Py_XINCREF(entry);
    if (entry && remember(self, key, entry) < 0)
      goto done;
  }
  if (!entry) {
    /* A miss (or an uncacheable call): Python compiles, loads, and returns
     * the entry, or None after launching by itself. */
    PyObject *call_args, *call_kwargs;
    if (call_objects(&call, &call_args, &call_kwargs) < 0)
      goto done;
    entry = PyObject_CallFunctionObjArgs(
        self->slow_path, grid, call_args, call_kwargs, key ? key : Py_None,
        device_obj, stream ? stream : Py_None, NULL);
    Py_DECREF(call_args);
    Py_DECREF(call_kwargs);
    if (!entry)
      goto done;
    if (entry == Py_None) {
      result = entry;
      entry = NULL;
      goto done;
    }
    /* Checked (read into C) before it is cached: a wrong entry is an error
     * and the next call asks again. */
    if (key && (remember(self, key, entry) < 0 ||
                PyDict_SetItem(self->entries, key, entry) < 0))
      goto done;
    /* Pointers were probed against this call: still valid. */
  }

  /* The launch: kernel, sources, grid, stream. */
  {
    /* The last entry was read into C when it was remembered; another (an
     * uncacheable call's) is read here. */
    ParsedEntry *parsed = &self->last_parsed;
    ParsedEntry local;
    if (entry != self->last_entry || self->last_n < 0) {
      if (parse_entry(entry, &local) < 0)
        goto done;
      parsed = &local;
    }
    Kernel *kernel = parsed->kernel;
    PyObject *values[MAX_PARAMS > 0 ? MAX_PARAMS : 1];
    Probe probes[MAX_PARAMS > 0 ? MAX_PARAMS : 1];
    for (Py_ssize_t i = 0; i < parsed->count; i++) {
      const Source *source = &parsed->sources[i];
      Py_ssize_t j = source->positional, k = source->keyword;
      probes[i].known = 0;
      if (j >= 0 || k >= 0) {
        if (j >= nargs || k >= call.nkw) {
          PyErr_SetString(PyExc_ValueError,
                          "a dispatcher source is out of range");
          goto done;
        }
        values[i] = j >= 0 ? args[j] : call.kw_values[k];
        if (kb.cacheable)
          probes[i] = kb.probes[j >= 0 ? j : nargs + k];
      } else {
        values[i] = source->value;
      }
    }
    unsigned dims[3];
    PyObject *grid_value = grid;
    PyObject *computed = NULL;
    if (PyCallable_Check(grid)) {
      PyObject *named = named_arguments(self, &call);
      if (!named)
        goto done;
      computed = PyObject_CallFunctionObjArgs(grid, named, NULL);
      Py_DECREF(named);
      if (!computed)
        goto done;
      grid_value = computed;
    }
    uint64_t handle;
    int bad = parse_grid(grid_value, kernel->max_grid, dims) < 0 ||
              stream_value(stream, kernel->device, &handle) < 0;
    Py_XDECREF(computed);
    if (bad)
      goto done;
    result = kernel_enqueue(kernel, dims, handle, values, probes, 1);
  }
done:
  Py_XDECREF(entry);
  Py_XDECREF(key);
  for (Py_ssize_t i = 0; i < owned_n; i++)
    Py_DECREF(owned[i]);
  return result;
}

/* dispatcher[grid] -> a bound launch; calling it launches. It is called
 * by vectorcall (PEP 590): the call's arguments arrive as an array and the
 * keywords' names as a tuple, without the tuple and dict that tp_call would
 * have Python build and free for every launch. CPython honours vectorcall on
 * heap types made from a spec since 3.9 (a `__vectorcalloffset__` member and
 * the flag, which the limited API names only from 3.12 on); tp_call stays
 * for callers that hold a tuple and a dict. */
#ifndef Py_TPFLAGS_HAVE_VECTORCALL
#define Py_TPFLAGS_HAVE_VECTORCALL (1UL << 11)
#endif
typedef PyObject *(*VectorcallFunction)(PyObject *callable,
                                        PyObject *const *args, size_t nargsf,
                                        PyObject *kwnames);
/* The flag in nargsf that lets a callee use args[-1] (PEP 590). */
#define VECTORCALL_ARGUMENTS_OFFSET ((size_t)1 << (8 * sizeof(size_t) - 1))

typedef struct {
  PyObject_HEAD Dispatcher *dispatcher;
  PyObject *grid;
  VectorcallFunction vectorcall;
} Bound;

static PyObject *bound_cleared(void) {
  PyErr_SetString(PyExc_TypeError, "a bound launch cleared by the collector");
  return NULL;
}

static PyObject *bound_vectorcall(PyObject *callable, PyObject *const *args,
                                  size_t nargsf, PyObject *kwnames) {
  Bound *self = (Bound *)callable;
  if (!self->dispatcher)
    return bound_cleared();
  return dispatch(self->dispatcher, self->grid, args,
                  (Py_ssize_t)(nargsf & ~VECTORCALL_ARGUMENTS_OFFSET), kwnames);
}

extern char **environ;

/* getenv("TILE_INTERPRET"), scanning the environment again only when it may
 * have changed since the last scan. The C library adds a variable at the
 * end of `environ` (or moves the array), removes one by shifting those after
 * it down, and sets one by storing a new "NAME=value" string in its slot
 * (strings are never rewritten in place). So while `environ` is the same
 * array, its terminator and last entry are where and what they were, and
 * the variable's slot (if it had one) holds the same string, no variable
 * was added or removed and this one's value is the same. */
static const char *interpret_variable(void) {
  static char **array;
  static size_t count;         /* the index of the terminating NULL */
  static char *last;           /* environ[count - 1] */
  static ptrdiff_t found = -1; /* the variable's index, -1: absent */
  static char *entry;          /* environ[found] */
  static const char *value;    /* what getenv gave */
  static const char name[] = "TILE_INTERPRET=";
  char **now = environ;
  if (now && now == array && now[count] == NULL &&
      (count == 0 || now[count - 1] == last) &&
      (found < 0 || now[found] == entry))
    return value;
  array = now;
  count = 0;
  found = -1;
  value = NULL;
  for (; now && now[count]; count++)
    if (found < 0 && strncmp(now[count], name, sizeof name - 1) == 0) {
      found = (ptrdiff_t)count;
      entry = now[count];
      value = entry + sizeof name - 1;
    }
  last = count ? now[count - 1] : NULL;
  return value;
}

static PyObject *dispatcher_subscript(Dispatcher *self, PyObject *grid) {
  /* TILE_INTERPRET is read on every launch, as os.environ holds it (setting
   * it there calls setenv): os.environ.get of a missing name costs a
   * microsecond or two (a KeyError), getenv tens of nanoseconds (a scan of
   * the environment), interpret_variable a few while the environment is
   * unchanged. Only when it is set does Python decide
   * (tile.interpreter.enabled). */
  const char *interpret = interpret_variable();
  if (interpret && interpret[0] && self->interpreted &&
      self->interpreted != Py_None) {
    PyObject *launch =
        PyObject_CallFunctionObjArgs(self->interpreted, grid, NULL);
    if (launch != Py_None)
      return launch; /* the interpreted launch, or NULL: an error */
    Py_DECREF(launch);
  }
  Bound *spare = (Bound *)self->spare;
  if (spare && spare->grid == grid && Py_REFCNT((PyObject *)spare) == 1)
    return Py_NewRef((PyObject *)spare);
  allocfunc alloc = (allocfunc)PyType_GetSlot(BoundType, Py_tp_alloc);
  Bound *bound = (Bound *)alloc(BoundType, 0);
  if (!bound)
    return NULL;
  bound->dispatcher = (Dispatcher *)Py_NewRef((PyObject *)self);
  bound->grid = Py_NewRef(grid);
  bound->vectorcall = bound_vectorcall;
  /* Only a tuple grid is kept: a grid function may hold the caller's
   * objects (tensors) alive, which must go when the launch is done. */
  if (PyTuple_CheckExact(grid))
    Py_XSETREF(self->spare, Py_NewRef((PyObject *)bound));
  return (PyObject *)bound;
}

static PyObject *bound_call(Bound *self, PyObject *args, PyObject *kwargs) {
  if (!self->dispatcher)
    return bound_cleared();
  Py_ssize_t nargs = PyTuple_Size(args);
  Py_ssize_t nkw = kwargs ? PyDict_Size(kwargs) : 0;
  if (nargs + nkw > MAX_ARGS)
    return too_many_arguments(self->dispatcher, nargs + nkw);
  PyObject *stack[MAX_ARGS];
  for (Py_ssize_t i = 0; i < nargs; i++)
    stack[i] = PyTuple_GetItem(args, i);
  PyObject *kwnames = NULL;
  if (nkw) {
    kwnames = PyTuple_New(nkw);
    if (!kwnames)
      return NULL;
    Py_ssize_t pos = 0, j = 0;
    PyObject *name, *value;
    while (PyDict_Next(kwargs, &pos, &name, &value)) {
      PyTuple_SetItem(kwnames, j, Py_NewRef(name));
      stack[nargs + j++] = value;
    }
  }
  PyObject *result =
      dispatch(self->dispatcher, self->grid, stack, nargs, kwnames);
  Py_XDECREF(kwnames);
  return result;
}

/* A bound launch is in a cycle with its dispatcher while it is the spare. */
static int bound_traverse(Bound *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE((PyObject *)self));
  Py_VISIT((PyObject *)self->dispatcher);
  Py_VISIT(self->grid);
  return 0;
}

/* Cleared only by the collector; a launch of a cleared one is refused. */
static int bound_clear(Bound *self) {
  Py_CLEAR(self->dispatcher);
  Py_CLEAR(self->grid);
  return 0;
}

static void bound_dealloc(Bound *self) {
  PyObject_GC_UnTrack(self);
  bound_clear(self);
  free_heap_instance((PyObject *)self);
}

static PyObject *dispatcher_clear(Dispatcher *self, PyObject *unused) {
  (void)unused;
  if (self->entries)
    PyDict_Clear(self->entries);
  self->last_n = -1;
  Py_CLEAR(self->last_key);
  Py_CLEAR(self->last_entry);
  Py_RETURN_NONE;
}

static PyObject *dispatcher_size(Dispatcher *self, void *closure) {
  (void)closure;
  return PyLong_FromSsize_t(self->entries ? PyDict_Size(self->entries) : 0);
}

static PyObject *dispatcher_entries(Dispatcher *self, void *closure) {
  (void)closure;
  return self->entries ? PyDict_Copy(self->entries) : PyDict_New();
}

static PyMethodDef dispatcher_methods[] = {
    {"clear", (PyCFunction)dispatcher_clear, METH_NOARGS,
     "forget every cached launch"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef dispatcher_getset[] = {
    {"size", (getter)dispatcher_size, NULL, "cached launches", NULL},
    {"entries", (getter)dispatcher_entries, NULL,
     "a copy of the cache: key -> (Kernel, sources)", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot dispatcher_slots[] = {
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_init, dispatcher_init},
    {Py_tp_dealloc, dispatcher_dealloc},
    {Py_tp_traverse, dispatcher_traverse},
    {Py_tp_clear, dispatcher_clear_references},
    {Py_mp_subscript, dispatcher_subscript},
    {Py_tp_methods, dispatcher_methods},
    {Py_tp_getset, dispatcher_getset},
    {Py_tp_doc, dispatcher_doc},
    {0, NULL}};

static PyType_Spec dispatcher_spec = {
    "tile._launcher.Dispatcher", sizeof(Dispatcher), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC, dispatcher_slots};

static PyMemberDef bound_members[] = {{"__vectorcalloffset__", T_PYSSIZET,
                                       offsetof(Bound, vectorcall), READONLY,
                                       NULL},
                                      {NULL, 0, 0, 0, NULL}};

static PyType_Slot bound_slots[] = {{Py_tp_call, bound_call},
                                    {Py_tp_members, bound_members},
                                    {Py_tp_dealloc, bound_dealloc},
                                    {Py_tp_traverse, bound_traverse},
                                    {Py_tp_clear, bound_clear},
                                    {Py_tp_doc, bound_doc},
                                    {0, NULL}};

static PyType_Spec bound_spec = {"tile._launcher.BoundLaunch", sizeof(Bound), 0,
                                 Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC |
                                     Py_TPFLAGS_HAVE_VECTORCALL,
                                 bound_slots};

/* ------------------------------------------------------------------------ */
/* JITFunctionBase: `kernel[grid]` in C                                      */
/* ------------------------------------------------------------------------ */

/* The base of tile.runtime.jit.JITFunction. `kernel[grid]` goes straight to
 * the function's dispatcher when it has one and no global its kernels read
 * needs checking (most launches); otherwise to the Python method
 * `_subscript(grid)` (the first launch, globals to check, the interpreter).
 * In C it spares every launch a Python frame. */
typedef struct {
  PyObject_HEAD PyObject *dispatcher; /* `_dispatcher`: a Dispatcher, None */
  PyObject *global_reads; /* `_global_reads`: checked while non-empty */
} JITFunctionBase;

static PyObject *s_subscript;

static PyObject *jit_base_subscript(JITFunctionBase *self, PyObject *grid) {
  PyObject *dispatcher = self->dispatcher;
  int reads = self->global_reads ? PyObject_IsTrue(self->global_reads) : 0;
  if (reads < 0)
    return NULL;
  if (!reads && dispatcher && Py_TYPE(dispatcher) == DispatcherType) {
    /* Held: the interpreter's hook, run from here, may drop it. */
    Py_INCREF(dispatcher);
    PyObject *bound = dispatcher_subscript((Dispatcher *)dispatcher, grid);
    Py_DECREF(dispatcher);
    return bound;
  }
  return PyObject_CallMethodObjArgs((PyObject *)self, s_subscript, grid, NULL);
}

static int jit_base_traverse(JITFunctionBase *self, visitproc visit,
                             void *arg) {
  Py_VISIT(Py_TYPE((PyObject *)self));
  Py_VISIT(self->dispatcher);
  Py_VISIT(self->global_reads);
  return 0;
}

static int jit_base_clear(JITFunctionBase *self) {
  Py_CLEAR(self->dispatcher);
  Py_CLEAR(self->global_reads);
  return 0;
}

static void jit_base_dealloc(JITFunctionBase *self) {
  PyObject_GC_UnTrack(self);
  jit_base_clear(self);
  free_heap_instance((PyObject *)self);
}

static PyMemberDef jit_base_members[] = {
    {"_dispatcher", T_OBJECT, offsetof(JITFunctionBase, dispatcher), 0,
     "the C launch cache (a Dispatcher, made on the first launch) or None"},
    {"_global_reads", T_OBJECT, offsetof(JITFunctionBase, global_reads), 0,
     "the globals the last compile read, checked before each launch"},
    {NULL, 0, 0, 0, NULL}};

static char jit_base_doc[] =
    "the base of tile's JITFunction: kernel[grid] through its dispatcher "
    "(_dispatcher) in C while no global read (_global_reads) needs checking, "
    "else self._subscript(grid)";

static PyType_Slot jit_base_slots[] = {{Py_tp_new, PyType_GenericNew},
                                       {Py_tp_dealloc, jit_base_dealloc},
                                       {Py_tp_traverse, jit_base_traverse},
                                       {Py_tp_clear, jit_base_clear},
                                       {Py_mp_subscript, jit_base_subscript},
                                       {Py_tp_members, jit_base_members},
                                       {Py_tp_doc, jit_base_doc},
                                       {0, NULL}};

static PyType_Spec jit_base_spec = {
    "tile._launcher.JITFunctionBase", sizeof(JITFunctionBase), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    jit_base_slots};

/* ------------------------------------------------------------------------ */
/* Module                                                                    */
/* ------------------------------------------------------------------------ */

static PyObject *configure(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  static char *names[] = {"launch_ex",
                          "launch",
                          "ctx_get_current",
                          "ctx_set_current",
                          "launch_error",
                          "cuda_error",
                          "device_query",
                          "stream_finder",
                          "tensor_map_encode_tiled",
                          NULL};
  unsigned long long launch_ex = 0, launch = 0, get_current = 0,
                     set_current = 0, encode_tiled = 0;
  PyObject *error_type, *error_factory, *devices, *streams;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "KKKKOOOO|K", names,
                                   &launch_ex, &launch, &get_current,
                                   &set_current, &error_type, &error_factory,
                                   &devices, &streams, &encode_tiled))
    return NULL;
  cu_launch_ex = (LaunchExFn)(uintptr_t)launch_ex;
  cu_launch = (LaunchFn)(uintptr_t)launch;
  cu_ctx_get_current = (CtxGetCurrentFn)(uintptr_t)get_current;
  cu_ctx_set_current = (CtxSetCurrentFn)(uintptr_t)set_current;
  cu_tensor_map_encode_tiled = (TensorMapEncodeTiledFn)(uintptr_t)encode_tiled;
  Py_XSETREF(launch_error, Py_NewRef(error_type));
  Py_XSETREF(cuda_error, Py_NewRef(error_factory));
  Py_XSETREF(device_query, Py_NewRef(devices));
  Py_XSETREF(stream_finder, streams == Py_None ? NULL : Py_NewRef(streams));
  Py_CLEAR(torch_streams);
  Py_RETURN_NONE;
}

static PyObject *py_half_bits(PyObject *module, PyObject *arg) {
  (void)module;
  double d = PyFloat_AsDouble(arg);
  if (d == -1.0 && PyErr_Occurred())
    return NULL;
  int overflow;
  uint16_t h = half_bits(d, &overflow);
  if (overflow) {
    PyErr_SetString(PyExc_OverflowError, "out of the f16 range");
    return NULL;
  }
  return PyLong_FromLong(h);
}

static PyObject *py_bf16_bits(PyObject *module, PyObject *arg) {
  (void)module;
  double d = PyFloat_AsDouble(arg);
  if (d == -1.0 && PyErr_Occurred())
    return NULL;
  return PyLong_FromLong(tile_bf16_bits(d));
}

static PyMethodDef module_methods[] = {
    {"configure", (PyCFunction)(void (*)(void))configure,
     METH_VARARGS | METH_KEYWORDS,
     "configure(launch_ex, launch, ctx_get_current, ctx_set_current, "
     "launch_error, cuda_error, device_query, stream_finder, "
     "tensor_map_encode_tiled=0): the driver's entry points and hooks"},
    {"half_bits", py_half_bits, METH_O, "f16 bits of a float (nearest even)"},
    {"bf16_bits", py_bf16_bits, METH_O, "bf16 bits of a float (nearest even)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "_launcher",
    "The launch path of tile kernels, in C.",
    -1,
    module_methods,
    NULL,
    NULL,
    NULL,
    NULL};

#define INTERN(var, text)                                                      \
  do {                                                                         \
    var = PyUnicode_InternFromString(text);                                    \
    if (!var)                                                                  \
      return NULL;                                                             \
  } while (0)

PyMODINIT_FUNC PyInit__launcher(void) {
  INTERN(s_data_ptr, "data_ptr");
  INTERN(s_get_device, "get_device");
  INTERN(s_dtype, "dtype");
  INTERN(s_device, "device");
  INTERN(s_cai, "__cuda_array_interface__");
  INTERN(s_data, "data");
  INTERN(s_typestr, "typestr");
  INTERN(s_stream, "stream");
  INTERN(s_cuda_stream, "cuda_stream");
  INTERN(s_ptr, "ptr");
  INTERN(s_handle, "handle");
  INTERN(s_base, "base");
  INTERN(s_shape, "shape");
  INTERN(s_strides, "strides");
  INTERN(s_torch, "torch");
  INTERN(s_subscript, "_subscript");
  kind_cache = PyDict_New();
  if (!kind_cache)
    return NULL;
  PyObject *module = PyModule_Create(&module_def);
  if (!module)
    return NULL;
  KernelType = (PyTypeObject *)PyType_FromSpec(&kernel_spec);
  DispatcherType = (PyTypeObject *)PyType_FromSpec(&dispatcher_spec);
  BoundType = (PyTypeObject *)PyType_FromSpec(&bound_spec);
  PyObject *jit_base = PyType_FromSpec(&jit_base_spec);
  int added = jit_base
                  ? PyModule_AddObjectRef(module, "JITFunctionBase", jit_base)
                  : -1;
  Py_XDECREF(jit_base);
  if (!KernelType || !DispatcherType || !BoundType || added < 0 ||
      PyModule_AddObjectRef(module, "Kernel", (PyObject *)KernelType) < 0 ||
      PyModule_AddObjectRef(module, "Dispatcher", (PyObject *)DispatcherType) <
          0 ||
      PyModule_AddObjectRef(module, "BoundLaunch", (PyObject *)BoundType) < 0) {
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
