"""Pass the state and the card tables to a kernel as one pointer instead of unpacked.

numba passes a named tuple of arrays to a compiled function as its arrays' every field, one machine word
each: State and Tables are about 185 words at every call that LLVM does not inline, which costs at run
time and makes numba's typing and lowering of each call site slow. ``ref(st)`` stores the tuple once in the
caller's stack frame and gives a :class:`RefType` value, a single pointer to it; ``r.inst`` reads the field
as ``st.inst`` would, so kernels written for the tuple compile unchanged for the reference. A reference
lives as long as the frame of the kernel that made it: take it in an entry point and pass it down, never
return or store it. Measured on a toy (40 calls of small kernels in a loop, a 12-array tuple): compile 8.0 s
-> 4.6 s, run 0.83 s -> 0.52 s. Its fields are read as invariant (LLVM may keep them across stores and calls),
so a ``ref()`` call that runs more than once, in a loop, must be given the same tuple each time. The sizes of
the axes that every such tuple's arrays have (all but the first, the class's ``AXES``: ``State.AXES``) are read as
constants, so an index's multiplications by them fold; ``ref()`` refuses a tuple whose arrays have other sizes
(ValueError).

A lone 1-D array is seven words (its memory record, parent, size, item size, data, shape, stride): the rule variants
(``ru``) and a seat's parameters (``sp``, ``st.sparams[player]``) reach every part, plan, check and routine as
``as_ptr(array)``, a pointer to the data, indexed as the array was (no negative indices: every index is a constant
``R_*``, ``P_*`` or ``S_*``). Measured on the whole game, paired against the arrays: 0.920 (about 8% faster).
"""

import numba
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.imputils import impl_ret_borrowed
from numba.core.typing.templates import AttributeTemplate, infer_getattr
from numba.extending import intrinsic, lower_getattr_generic, models, register_model


class RefType(types.Type):
    """A pointer to a named tuple (``target``) held in a caller's frame."""

    def __init__(self, target):
        self.target = target
        super().__init__(name=f"Ref({target})")


@register_model(RefType)
class _RefModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, dmm.lookup(fe_type.target).get_value_type().as_pointer())


@infer_getattr
class _RefAttributes(AttributeTemplate):
    key = RefType

    def generic_resolve(self, typ, attr):
        if attr in typ.target.fields:
            return typ.target.types[typ.target.fields.index(attr)]
        return None


@lower_getattr_generic(RefType)
def _ref_getattr(context, builder, typ, value, attr):
    # numba's lowering owns what a getattr returns and releases it when the variable dies: a kernel with
    # reference counting would free the caller's array without this incref (a no-op in kernels without it)
    i = typ.target.fields.index(attr)
    # The tuple a reference points to is never written once made (only its arrays' data are), so its words (each
    # array's data pointer, shape, strides) can be read once and kept across stores and calls: LLVM's
    # invariant.load, which it keeps on the words it splits this load into.
    whole = builder.load(value)
    whole.set_metadata("invariant.load", builder.module.add_metadata([]))
    array = builder.extract_value(whole, i)
    # the axes every such array has (the tuple class's AXES) as constants: an index's multiplications by them fold
    for axis, n in _fixed_axes(typ.target, attr):
        array = builder.insert_value(
            array, context.get_constant(types.intp, n), [_shape_field(context, typ.target.types[i]), axis]
        )
    return impl_ret_borrowed(context, builder, typ.target.types[i], array)


def _fixed_axes(target, attr) -> list[tuple[int, int]]:
    """(axis, size) of the axes of field ``attr`` that every tuple of ``target``'s class has (its ``AXES``: the
    sizes of every axis but the first)."""
    sizes = getattr(getattr(target, "instance_class", None), "AXES", {}).get(attr, ())
    if sizes and target.types[target.fields.index(attr)].ndim != len(sizes) + 1:
        raise ValueError(f"{target.instance_class.__name__}.AXES[{attr!r}] does not match the array's dimensions")
    return list(enumerate(sizes, start=1))


def _shape_field(context, array_type) -> int:
    return context.data_model_manager[array_type].get_field_position("shape")


@intrinsic
def _ref(typingctx, tup):
    if not isinstance(tup, types.BaseNamedTuple):
        return None
    return RefType(tup)(tup), _ref_codegen


@intrinsic
def _as_ref(typingctx, x):
    if isinstance(x, RefType):
        return x(x), lambda context, builder, signature, args: args[0]
    if isinstance(x, types.BaseNamedTuple):
        return RefType(x)(x), _ref_codegen
    return None


def _ref_codegen(context, builder, signature, args):
    """A reference to tuple ``args[0]`` in the caller's frame (ref() and as_ref() of a tuple)."""
    tup_type = signature.args[0]
    # the references' readers take the fixed axes as given (_ref_getattr): a tuple with others is refused
    for index, (attr, field) in enumerate(zip(tup_type.fields, tup_type.types, strict=True)):
        array = builder.extract_value(args[0], index)
        for axis, n in _fixed_axes(tup_type, attr):
            size = builder.extract_value(builder.extract_value(array, _shape_field(context, field)), axis)
            with cgutils.if_unlikely(builder, builder.icmp_signed("!=", size, context.get_constant(types.intp, n))):
                message = f"{tup_type.instance_class.__name__}.{attr}: axis {axis} must be {n} long"
                context.call_conv.return_user_exc(builder, ValueError, (message,))
    ptr = cgutils.alloca_once(builder, context.get_value_type(tup_type))
    builder.store(args[0], ptr)
    # The fields are read as invariant (_ref_getattr), which the memory is only once this store is done:
    # an empty asm statement hands the pointer on as one LLVM cannot trace back to the store, so no read is
    # moved before it or answered from the uninitialised slot.
    return builder.asm(ir.FunctionType(ptr.type, [ptr.type]), "", "=r,0,~{memory}", [ptr], True)


@intrinsic
def _as_ptr(typingctx, x):
    # a pointer to a C-contiguous 1-D array's data (given as it is if it is one already), valid while the array lives
    if isinstance(x, types.CPointer):
        return x(x), lambda context, builder, signature, args: args[0]
    if isinstance(x, types.Array) and x.ndim == 1 and x.layout == "C":

        def codegen(context, builder, signature, args):
            return context.make_array(signature.args[0])(context, builder, args[0]).data

        return types.CPointer(x.dtype)(x), codegen
    return None


if numba.config.DISABLE_JIT:

    def ref(tup):
        """The tuple itself (plain Python)."""
        return tup

    as_ref = ref

    def as_ptr(array):
        """The array itself (plain Python): what kernels index as ``as_ptr(array)[i]``."""
        return array

else:
    ref = _ref
    as_ref = _as_ref  # a reference given as it is, a tuple as ref() makes one: for kernels called with either
    as_ptr = _as_ptr
