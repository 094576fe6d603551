//! Response bodies the TS layer is done with, freed on the JS thread at the next settle.
//!
//! Every response body is a Buffer of its own, and V8 counts each one's memory as external
//! until the GC finds it dead. Under a search load with large answers (top-10 of 4 KB documents
//! is 50 KB) that count brought on a mark-compact every ~100 ms: 2-7 ms on the JS thread each,
//! plus concurrent marking on the other core. Once a response is written, the TS layer pushes
//! its body onto this array (plain JS, no call into the addon); the next settle detaches each
//! one, which frees its memory at once and takes it off the count.
//!
//! Unsafe: raw N-API calls, each on the JS thread, noted per function.
#![allow(unsafe_code)]

use crate::body::detach_whole_buffer;
use crate::completion::check;
use napi::bindgen_prelude::*;
use napi::sys;
use std::ptr;

/// A JS array of Buffers nothing will read again, held by a strong reference.
pub struct Spent {
    array: sys::napi_ref,
}

impl Spent {
    /// JS thread.
    pub unsafe fn new(env: sys::napi_env) -> Result<Spent> {
        // SAFETY: JS thread (caller), valid env, out-pointers valid.
        unsafe {
            let mut array = ptr::null_mut();
            check(sys::napi_create_array(env, &mut array), "napi_create_array")?;
            let mut reference = ptr::null_mut();
            check(
                sys::napi_create_reference(env, array, 1, &mut reference),
                "napi_create_reference",
            )?;
            Ok(Spent { array: reference })
        }
    }

    /// JS thread: the array, for the TS layer to push onto.
    pub unsafe fn array(&self, env: sys::napi_env) -> Result<sys::napi_value> {
        let mut array = ptr::null_mut();
        // SAFETY: JS thread (caller), the reference lives until `delete`.
        check(
            unsafe { sys::napi_get_reference_value(env, self.array, &mut array) },
            "napi_get_reference_value",
        )?;
        Ok(array)
    }

    /// JS thread, inside a handle scope: detaches every Buffer pushed since the last drain and
    /// empties the array.
    pub unsafe fn drain(&self, env: sys::napi_env) {
        // SAFETY: JS thread (caller), valid env and reference, out-pointers valid.
        unsafe {
            let Ok(array) = self.array(env) else { return };
            let mut len = 0;
            if sys::napi_get_array_length(env, array, &mut len) != sys::Status::napi_ok || len == 0
            {
                return;
            }
            for i in 0..len {
                let mut value = ptr::null_mut();
                if sys::napi_get_element(env, array, i, &mut value) == sys::Status::napi_ok {
                    detach_whole_buffer(env, value);
                }
            }
            let mut zero = ptr::null_mut();
            if sys::napi_create_uint32(env, 0, &mut zero) == sys::Status::napi_ok {
                sys::napi_set_named_property(env, array, c"length".as_ptr(), zero);
            }
        }
    }

    /// JS thread: drops the reference (the engine is gone).
    pub unsafe fn delete(&self, env: sys::napi_env) {
        // SAFETY: JS thread (caller); called once, when nothing drains any more.
        unsafe {
            sys::napi_delete_reference(env, self.array);
        }
    }
}
