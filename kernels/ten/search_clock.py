"""The calling thread's CPU time in nanoseconds, readable from a Numba kernel (``thread_ns``).

The search bot's ``ms`` budget is CPU time of the thread that runs the game: a decision on a busy
machine gets the same amount of computing as on an idle one ("50 ms on one core"). It is read by
``clock_gettime(CLOCK_THREAD_CPUTIME_ID)`` called straight from the generated code (a Numba
intrinsic declaring the C function), because a ctypes function pointer would stop Numba from
caching every kernel that uses it. The clock id is the platform's (Python's ``time`` module);
where it does not exist the ``ms`` budget is refused before any kernel runs
(``analyzer/games/ten/bots.py``).
"""
import time

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

#: CLOCK_THREAD_CPUTIME_ID of this platform (3 on Linux), −1 where there is none.
CLOCK_ID = getattr(time, "CLOCK_THREAD_CPUTIME_ID", -1)


@intrinsic
def _clock_ns(typingctx):
    """clock_gettime(CLOCK_ID, &ts) as ts.tv_sec · 10⁹ + ts.tv_nsec (a 64-bit timespec)."""
    def codegen(context, builder, signature, args):
        i32, i64 = ir.IntType(32), ir.IntType(64)
        spec = ir.LiteralStructType([i64, i64])
        fn = cgutils.get_or_insert_function(builder.module,
                                            ir.FunctionType(i32, [i32, spec.as_pointer()]),
                                            "clock_gettime")
        ts = cgutils.alloca_once(builder, spec)
        builder.store(ir.Constant(spec, [0, 0]), ts)
        builder.call(fn, [ir.Constant(i32, CLOCK_ID), ts])
        zero = ir.Constant(i32, 0)
        sec = builder.load(builder.gep(ts, [zero, zero]))
        nsec = builder.load(builder.gep(ts, [zero, ir.Constant(i32, 1)]))
        return builder.add(builder.mul(sec, ir.Constant(i64, 1_000_000_000)), nsec)

    return types.int64(), codegen


@njit(cache=True)
def thread_ns():
    """CPU time of the calling thread, in nanoseconds (only differences mean anything)."""
    return _clock_ns()
