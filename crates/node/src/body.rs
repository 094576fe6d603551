//! Request bodies lent to the engine's pool, and released on the JS thread when the call
//! settles.
//!
//! A body is one Buffer, or the chunks a large one arrived in. The pool reads them in place
//! (a multi-megabyte `_bulk` is never copied on the JS thread), so each stays referenced until
//! the call settles. Then every chunk of a chunked body that is the whole of its ArrayBuffer
//! (node's HTTP parser copies each body chunk into one of its own) is detached: its memory is
//! freed at once and leaves V8's count of external memory. Left to the GC, each bulk's
//! megabytes of chunks counted toward V8's next mark-compact, and those came every second or
//! two while ingest ran: 2–16 ms on the JS thread each, the tail of `GET /` under ingest.
//!
//! Unsafe: raw N-API calls, each on the JS thread, noted per function.
#![allow(unsafe_code)]

use crate::completion::check;
use napi::bindgen_prelude::*;
use napi::sys;
use std::borrow::Cow;
use std::ptr;

/// The caller's bytes, held by references until `release`.
pub struct LentBody {
    env: sys::napi_env,
    chunks: Vec<Chunk>,
    /// Given as an array of chunks: the caller hands them over, they may be detached.
    consumed: bool,
}

struct Chunk {
    data: *const u8,
    len: usize,
    reference: sys::napi_ref,
}

// SAFETY: the pool only reads the bytes, which the references keep alive and in place (an
// ArrayBuffer's backing store never moves, and nothing detaches it before `release`); the
// references themselves are only touched on the JS thread.
unsafe impl Send for LentBody {}

impl LentBody {
    /// JS thread: holds `value`, a Buffer or an array of Buffers.
    pub fn hold(env: &Env, value: Unknown<'_>) -> Result<LentBody> {
        let env = env.raw();
        let value = value.raw();
        let mut body = LentBody {
            env,
            chunks: Vec::new(),
            consumed: false,
        };
        let mut is_array = false;
        // SAFETY: JS thread, valid env and value, out-pointers valid.
        unsafe {
            check(
                sys::napi_is_array(env, value, &mut is_array),
                "napi_is_array",
            )?;
            if !is_array {
                body.push(value)?;
                return Ok(body);
            }
            body.consumed = true;
            let mut n = 0;
            check(
                sys::napi_get_array_length(env, value, &mut n),
                "napi_get_array_length",
            )?;
            body.chunks.reserve(n as usize);
            for i in 0..n {
                let mut chunk = ptr::null_mut();
                let held = check(
                    sys::napi_get_element(env, value, i, &mut chunk),
                    "napi_get_element",
                )
                .and_then(|()| body.push(chunk));
                if let Err(e) = held {
                    body.consumed = false;
                    body.release();
                    return Err(e);
                }
            }
        }
        Ok(body)
    }

    /// JS thread.
    unsafe fn push(&mut self, chunk: sys::napi_value) -> Result<()> {
        let mut data = ptr::null_mut();
        let mut len = 0;
        let mut reference = ptr::null_mut();
        // SAFETY: JS thread (caller), valid env and value, out-pointers valid. A chunk that is
        // not a Buffer fails here, before anything is referenced for it.
        unsafe {
            check(
                sys::napi_get_buffer_info(self.env, chunk, &mut data, &mut len),
                "the body must be a Buffer: napi_get_buffer_info",
            )?;
            check(
                sys::napi_create_reference(self.env, chunk, 1, &mut reference),
                "napi_create_reference",
            )?;
        }
        self.chunks.push(Chunk {
            data: data.cast_const().cast(),
            len,
            reference,
        });
        Ok(())
    }

    /// Any thread: the bytes, joined when they came in chunks.
    pub fn bytes(&self) -> Cow<'_, [u8]> {
        // SAFETY: held by the references, unchanged until `release` (see `Send`).
        let slice = |c: &Chunk| unsafe { std::slice::from_raw_parts(c.data, c.len) };
        match self.chunks.as_slice() {
            [] => Cow::Borrowed(&[]),
            [one] => Cow::Borrowed(slice(one)),
            many => {
                let mut all = Vec::with_capacity(many.iter().map(|c| c.len).sum());
                for c in many {
                    all.extend_from_slice(slice(c));
                }
                Cow::Owned(all)
            }
        }
    }

    /// JS thread, inside a handle scope: frees a consumed body's chunks and drops every
    /// reference. A chunk that is part of a larger ArrayBuffer (a pooled Buffer, a slice) is
    /// left to the GC, as is any chunk whose detaching fails.
    pub unsafe fn release(self) {
        for c in &self.chunks {
            // SAFETY: JS thread (caller), the reference is live until deleted here.
            unsafe {
                if self.consumed {
                    detach_if_whole(self.env, c);
                }
                sys::napi_delete_reference(self.env, c.reference);
            }
        }
    }
}

/// JS thread.
unsafe fn detach_if_whole(env: sys::napi_env, c: &Chunk) {
    // SAFETY: JS thread (caller), valid env and reference, out-pointers valid.
    unsafe {
        let mut value = ptr::null_mut();
        if sys::napi_get_reference_value(env, c.reference, &mut value) == sys::Status::napi_ok
            && !value.is_null()
        {
            detach_whole_buffer(env, value);
        }
    }
}

/// JS thread: detaches `value`'s ArrayBuffer when `value` is a Buffer spanning all of it (its
/// memory is freed at once and leaves V8's count of external memory); anything else (a pooled
/// Buffer, a slice, not a typed array at all, whose info N-API refuses) is left to the GC.
pub(crate) unsafe fn detach_whole_buffer(env: sys::napi_env, value: sys::napi_value) {
    // SAFETY: JS thread (caller), valid env and value, out-pointers valid.
    unsafe {
        let mut kind = 0;
        let mut length = 0;
        let mut data = ptr::null_mut();
        let mut buffer = ptr::null_mut();
        let mut offset = 0;
        if sys::napi_get_typedarray_info(
            env,
            value,
            &mut kind,
            &mut length,
            &mut data,
            &mut buffer,
            &mut offset,
        ) != sys::Status::napi_ok
        {
            return;
        }
        let mut whole = 0;
        let mut whole_data = ptr::null_mut();
        if sys::napi_get_arraybuffer_info(env, buffer, &mut whole_data, &mut whole)
            != sys::Status::napi_ok
        {
            return;
        }
        if kind == sys::TypedarrayType::uint8_array && offset == 0 && whole == length {
            sys::napi_detach_arraybuffer(env, buffer);
        }
    }
}
