//! Settling the promises of engine calls from the engine's pool threads.
//!
//! napi-rs' `JsDeferred` creates and tears down a threadsafe function (a libuv handle and two
//! cleanup hooks) per call, and an argument `Buffer` dropped on a pool thread goes back through
//! a second threadsafe function: three wake-ups of the JS thread per request. Node's threadsafe
//! functions also signal the loop while holding their queue lock, so the JS thread, woken, often
//! blocks on that lock at once and the two threads convoy (two extra context switches per call,
//! measured with perf when they share a core).
//!
//! Here each engine has one libuv async handle and a queue: a pool thread pushes its outcome,
//! releases the lock, then signals; libuv coalesces signals, so under load one wake-up settles
//! many calls. On the JS thread the handle's callback takes the whole queue, builds each
//! `{status, body, location}`, resolves or rejects, and releases what the jobs kept alive (the
//! request bodies, `body.rs`); the callback scope it runs in then
//! drains the promise reactions, as a threadsafe function's dispatch would. The handle keeps the
//! event loop alive only while calls are in flight, as a libuv request does.
//!
//! Unsafe, as in `body.rs`: raw N-API and libuv calls (node exports libuv to addons), each on
//! the thread N-API and libuv allow it on, noted per function.
#![allow(unsafe_code)]

use crate::spent::Spent;
use napi::bindgen_prelude::*;
use napi::sys;
use std::ffi::{c_int, c_void};
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// Bodies up to this size are copied into a fresh JS Buffer: cheaper than an external buffer,
/// whose finalizer has to run through the GC. Larger ones are handed over without a copy.
const COPY_LIMIT: usize = 64 * 1024;

/// Storage for a `uv_async_t` or `uv_idle_t` (128 and 120 bytes on 64-bit Linux); a handle's
/// first field is `void* data`, the only one read here. Oversized so a libuv with larger
/// handles still fits.
#[repr(C, align(16))]
struct UvHandle {
    data: *mut c_void,
    _rest: [u8; 504],
}

extern "C" {
    fn uv_async_init(
        lp: *mut sys::uv_loop_s,
        handle: *mut UvHandle,
        cb: unsafe extern "C" fn(*mut UvHandle),
    ) -> c_int;
    fn uv_async_send(handle: *mut UvHandle) -> c_int;
    fn uv_close(handle: *mut UvHandle, cb: unsafe extern "C" fn(*mut UvHandle));
    fn uv_ref(handle: *mut UvHandle);
    fn uv_unref(handle: *mut UvHandle);
    fn uv_idle_init(lp: *mut sys::uv_loop_s, handle: *mut UvHandle) -> c_int;
    fn uv_idle_start(handle: *mut UvHandle, cb: unsafe extern "C" fn(*mut UvHandle)) -> c_int;
    fn uv_idle_stop(handle: *mut UvHandle) -> c_int;
    fn uv_hrtime() -> u64;
}

/// What a job produced, plus what it must release on the JS thread.
pub struct Outcome {
    pub result: std::result::Result<quarry_engine::Response, quarry_engine::Error>,
    /// Held until the promise settles, then released on the JS thread (the request body).
    pub keep: Option<crate::body::LentBody>,
}

#[derive(Clone, Copy)]
struct Handle(*mut UvHandle);
// SAFETY: `uv_async_send` is the one libuv call that may come from any thread; everything else
// on the handle happens on the JS thread.
unsafe impl Send for Handle {}
unsafe impl Sync for Handle {}

struct Done {
    deferred: sys::napi_deferred,
    read: bool,
    outcome: Outcome,
}
// SAFETY: the deferred is an opaque token until the JS thread settles it.
unsafe impl Send for Done {}

struct JsSide {
    env: sys::napi_env,
    /// The async resource the callback scope runs under.
    resource: sys::napi_ref,
    context: sys::napi_async_context,
    cleanup: sys::napi_async_cleanup_hook_handle,
    spent: Spent,
}
// SAFETY: only read on the JS thread (the async callback, the engine's finalizer, teardown).
unsafe impl Send for JsSide {}
unsafe impl Sync for JsSide {}

struct Shared {
    /// `None` once closed (environment teardown, or the engine collected with nothing in
    /// flight). Pool threads signal under the read lock, so they never wait on each other.
    handle: RwLock<Option<Handle>>,
    queue: Mutex<Vec<Done>>,
    /// Calls begun and not yet settled (counted on the JS thread only).
    inflight: AtomicUsize,
    /// Of those, the reads (searches, gets): the calls the loop polls for.
    reads: AtomicUsize,
    /// The engine object was collected: close when the last call settles.
    released: AtomicBool,
    spin: Spin,
    js: JsSide,
}

/// Keeps the event loop polling, instead of sleeping in `epoll_wait`, while an engine read is
/// in flight. On a VM a thread that sleeps lets its vCPU halt, and waking a halted vCPU (the
/// pool thread's `uv_async_send`, the next request's packet) costs 0.1-0.5 ms: more than
/// most searches take. An idle handle makes libuv poll with a zero timeout, so the loop sees
/// both promptly. It stops `SPIN_AFTER_NS` after the last read settles, when more calls are in
/// flight than `SPIN_MAX_INFLIGHT`, or after `SPIN_NS` without a call begun or settled, so a
/// long read sleeps as before and an idle node costs nothing; writes (bulks run for
/// milliseconds, and wait on the disk) never poll. JS thread only: the atomics are Relaxed.
struct Spin {
    handle: *mut UvHandle,
    /// The `uv_hrtime` past which the loop sleeps again.
    until: std::sync::atomic::AtomicU64,
    /// Whether the loop may poll at all: where the search threads poll for work (each has a
    /// core of its own). On one core the polling loop would take the core from the search it
    /// waits for (`Node::open`).
    enabled: bool,
}
// SAFETY: the handle is touched on the JS thread only.
unsafe impl Send for Spin {}
unsafe impl Sync for Spin {}

/// How long the loop polls after the last read in flight settles: a client's next request
/// often follows its answer within this, and finds the loop awake (`_count` p50 over HTTP,
/// one connection: 0.11-0.13 -> 0.097-0.104 ms).
const SPIN_AFTER_NS: u64 = 300_000;

/// How long the loop polls after a call begins or settles before it sleeps anyway.
const SPIN_NS: u64 = 2_000_000;

/// Polls only while this many calls are in flight: with more, the pool threads have every core
/// busy and a polling JS thread would take CPU from them; the next completion comes soon.
const SPIN_MAX_INFLIGHT: usize = 1;

impl Spin {
    /// JS thread, handle open.
    unsafe fn touch(&self, ns: u64) {
        if !self.enabled {
            return;
        }
        // SAFETY: JS thread, open handle (the caller holds the async handle's read lock).
        unsafe {
            self.until.store(uv_hrtime() + ns, Ordering::Relaxed);
            // A no-op on an active handle: libuv keeps whether it is.
            uv_idle_start(self.handle, on_spin);
        }
    }

    /// JS thread, handle open: polls for `ns` more while a read is in flight and few calls
    /// are, else stops.
    unsafe fn follow(&self, shared: &Shared, ns: u64) {
        let inflight = shared.inflight.load(Ordering::Relaxed);
        // SAFETY: as `touch`.
        unsafe {
            if shared.reads.load(Ordering::Relaxed) > 0 && inflight <= SPIN_MAX_INFLIGHT {
                self.touch(ns);
            } else {
                self.stop();
            }
        }
    }

    /// JS thread, handle open.
    unsafe fn stop(&self) {
        // SAFETY: as `touch`; a no-op on a stopped handle.
        unsafe { uv_idle_stop(self.handle) };
    }
}

/// JS thread (libuv idle callback, once per loop turn while spinning).
unsafe extern "C" fn on_spin(handle: *mut UvHandle) {
    // SAFETY: `data` points at the Shared that owns this handle; the handle is closed before
    // that Shared is freed, and a closed handle runs no callback.
    unsafe {
        let shared = &*((*handle).data as *const Shared);
        if uv_hrtime() > shared.spin.until.load(Ordering::Relaxed) {
            shared.spin.stop();
        }
    }
}

/// JS thread: frees a closed idle handle.
unsafe extern "C" fn on_spin_closed(handle: *mut UvHandle) {
    // SAFETY: boxed in `Completer::new`, closed once.
    drop(unsafe { Box::from_raw(handle) });
}

/// One per engine, owned by the JS object.
pub struct Completer {
    shared: Arc<Shared>,
}

/// A promise to settle, sent to the pool with the job.
pub struct Pending {
    shared: Arc<Shared>,
    deferred: sys::napi_deferred,
    read: bool,
    settled: bool,
}
// SAFETY: see `Done`.
unsafe impl Send for Pending {}

pub(crate) fn check(status: sys::napi_status, what: &str) -> Result<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(Error::new(
            Status::GenericFailure,
            format!("{what} failed ({status})"),
        ))
    }
}

impl Completer {
    /// JS thread. `polls`: whether the loop may poll for reads in flight (`Spin`).
    pub fn new(env: &Env, polls: bool) -> Result<Completer> {
        let raw_env = env.raw();
        // SAFETY: JS thread, valid env, out-pointers valid; on success the handle is owned by
        // the loop until `on_closed`, which drops the Arc it carries.
        unsafe {
            let mut lp = ptr::null_mut();
            check(
                sys::napi_get_uv_event_loop(raw_env, &mut lp),
                "napi_get_uv_event_loop",
            )?;
            let mut resource = ptr::null_mut();
            check(
                sys::napi_create_object(raw_env, &mut resource),
                "napi_create_object",
            )?;
            let mut name = ptr::null_mut();
            check(
                sys::napi_create_string_utf8(raw_env, c"QuarryEngine".as_ptr(), 12, &mut name),
                "napi_create_string_utf8",
            )?;
            let mut context = ptr::null_mut();
            check(
                sys::napi_async_init(raw_env, resource, name, &mut context),
                "napi_async_init",
            )?;
            let mut resource_ref = ptr::null_mut();
            check(
                sys::napi_create_reference(raw_env, resource, 1, &mut resource_ref),
                "napi_create_reference",
            )?;
            let handle = Box::into_raw(Box::new(UvHandle {
                data: ptr::null_mut(),
                _rest: [0; 504],
            }));
            if uv_async_init(lp, handle, on_signal) != 0 {
                drop(Box::from_raw(handle));
                return Err(Error::new(Status::GenericFailure, "uv_async_init failed"));
            }
            uv_unref(handle);
            let idle = Box::into_raw(Box::new(UvHandle {
                data: ptr::null_mut(),
                _rest: [0; 504],
            }));
            if uv_idle_init(lp, idle) != 0 {
                drop(Box::from_raw(idle));
                return Err(Error::new(Status::GenericFailure, "uv_idle_init failed"));
            }
            // Polling must not keep the loop alive by itself; the async handle does that.
            uv_unref(idle);
            let spent = Spent::new(raw_env)?;
            let mut shared = Arc::new(Shared {
                handle: RwLock::new(Some(Handle(handle))),
                queue: Mutex::new(Vec::new()),
                inflight: AtomicUsize::new(0),
                reads: AtomicUsize::new(0),
                released: AtomicBool::new(false),
                spin: Spin {
                    handle: idle,
                    until: std::sync::atomic::AtomicU64::new(0),
                    enabled: polls,
                },
                js: JsSide {
                    env: raw_env,
                    resource: resource_ref,
                    context,
                    cleanup: ptr::null_mut(),
                    spent,
                },
            });
            let mut cleanup = ptr::null_mut();
            let arg = Arc::as_ptr(&shared) as *mut c_void;
            check(
                sys::napi_add_async_cleanup_hook(raw_env, Some(on_teardown), arg, &mut cleanup),
                "napi_add_async_cleanup_hook",
            )?;
            Arc::get_mut(&mut shared)
                .expect("not shared yet")
                .js
                .cleanup = cleanup;
            (*idle).data = Arc::as_ptr(&shared) as *mut c_void;
            (*handle).data = Arc::into_raw(shared.clone()) as *mut c_void;
            Ok(Completer { shared })
        }
    }

    /// JS thread: the array the TS layer pushes written response bodies onto (`spent.rs`).
    pub fn spent<'env>(&self, env: &'env Env) -> Result<Unknown<'env>> {
        // SAFETY: JS thread; the reference lives as long as the engine, and the value is one of
        // this env's, made in the caller's scope.
        unsafe {
            let array = self.shared.js.spent.array(env.raw())?;
            Ok(Unknown::from_raw_unchecked(env.raw(), array))
        }
    }

    /// JS thread: a new promise and the token that settles it. `read`: a call the loop polls
    /// for (a write runs for milliseconds, and its client waits on the disk anyway).
    pub fn begin<'env>(&self, env: &'env Env, read: bool) -> Result<(Pending, Object<'env>)> {
        let raw_env = env.raw();
        let mut deferred = ptr::null_mut();
        let mut promise = ptr::null_mut();
        // SAFETY: JS thread, valid env.
        unsafe {
            check(
                sys::napi_create_promise(raw_env, &mut deferred, &mut promise),
                "napi_create_promise",
            )?;
        }
        let first = self.shared.inflight.fetch_add(1, Ordering::Relaxed) == 0;
        if read {
            self.shared.reads.fetch_add(1, Ordering::Relaxed);
        }
        if let Some(h) = *self.shared.handle.read().expect("handle lock") {
            // SAFETY: JS thread, open handles.
            unsafe {
                if first {
                    uv_ref(h.0);
                }
                self.shared.spin.follow(&self.shared, SPIN_NS);
            }
        }
        let pending = Pending {
            shared: self.shared.clone(),
            deferred,
            read,
            settled: false,
        };
        Ok((pending, Object::from_raw(raw_env, promise)))
    }
}

impl Drop for Completer {
    /// JS thread (the engine object's finalizer).
    fn drop(&mut self) {
        self.shared.released.store(true, Ordering::Release);
        if self.shared.inflight.load(Ordering::Relaxed) == 0 {
            close(&self.shared);
        }
    }
}

/// JS thread: closes the handle once (teardown or release, whichever comes first).
fn close(shared: &Shared) {
    if let Some(h) = shared.handle.write().expect("handle lock").take() {
        // SAFETY: JS thread; no signal can follow (taken under the write lock), and no spin
        // starts once the handle is gone.
        unsafe {
            uv_close(shared.spin.handle, on_spin_closed);
            uv_close(h.0, on_closed);
        }
    }
}

impl Pending {
    /// Any thread: queues the outcome and wakes the JS thread, which settles the promise.
    pub fn settle(mut self, outcome: Outcome) {
        self.settled = true;
        self.shared.queue.lock().expect("queue lock").push(Done {
            deferred: self.deferred,
            read: self.read,
            outcome,
        });
        // Signalled after the queue lock is released, so the woken JS thread never waits on it.
        if let Some(h) = *self.shared.handle.read().expect("handle lock") {
            // SAFETY: open while `Some` under the read lock.
            unsafe { uv_async_send(h.0) };
        }
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if !self.settled {
            // A job that never ran (its pool gone) still settles its promise.
            let p = Pending {
                shared: self.shared.clone(),
                deferred: self.deferred,
                read: self.read,
                settled: true,
            };
            p.settle(Outcome {
                result: Err(quarry_engine::Error::internal(
                    "the engine call was dropped",
                )),
                keep: None,
            });
        }
    }
}

/// JS thread (libuv async callback): settles everything queued.
unsafe extern "C" fn on_signal(handle: *mut UvHandle) {
    // SAFETY: `data` holds an Arc reference until `on_closed`.
    let shared = unsafe { &*((*handle).data as *const Shared) };
    let batch = std::mem::take(&mut *shared.queue.lock().expect("queue lock"));
    if batch.is_empty() {
        return;
    }
    let env = shared.js.env;
    // SAFETY: JS thread, outside any JS frame: a handle scope for the values made here and a
    // callback scope whose closing runs the microtasks (the promise reactions) and next ticks.
    unsafe {
        let mut scope = ptr::null_mut();
        if sys::napi_open_handle_scope(env, &mut scope) != sys::Status::napi_ok {
            return;
        }
        let mut resource = ptr::null_mut();
        sys::napi_get_reference_value(env, shared.js.resource, &mut resource);
        let mut cb_scope = ptr::null_mut();
        let opened = sys::napi_open_callback_scope(env, resource, shared.js.context, &mut cb_scope)
            == sys::Status::napi_ok;
        shared.js.spent.drain(env);
        let n = batch.len();
        let reads = batch.iter().filter(|d| d.read).count();
        shared.reads.fetch_sub(reads, Ordering::Relaxed);
        for Done {
            deferred, outcome, ..
        } in batch
        {
            match outcome.result {
                Ok(r) => match response_object(env, r) {
                    Ok(v) => {
                        sys::napi_resolve_deferred(env, deferred, v);
                    }
                    Err(e) => reject(env, deferred, &e.reason, "GenericFailure"),
                },
                Err(e) => reject(
                    env,
                    deferred,
                    &e.to_wire().to_string(),
                    crate::ENGINE_ERROR_CODE,
                ),
            }
            if let Some(body) = outcome.keep {
                body.release();
            }
        }
        if shared.inflight.fetch_sub(n, Ordering::Relaxed) == n {
            if shared.released.load(Ordering::Acquire) {
                close(shared);
            } else {
                uv_unref(handle);
                if reads > 0 {
                    shared.spin.touch(SPIN_AFTER_NS);
                }
            }
        } else {
            shared.spin.follow(shared, SPIN_NS);
        }
        if opened {
            sys::napi_close_callback_scope(env, cb_scope);
        }
        let mut pending = false;
        sys::napi_is_exception_pending(env, &mut pending);
        if pending {
            // As a threadsafe function's dispatch does: an exception thrown from a reaction
            // or a tick is the process's uncaught exception.
            let mut err = ptr::null_mut();
            sys::napi_get_and_clear_last_exception(env, &mut err);
            sys::napi_fatal_exception(env, err);
        }
        sys::napi_close_handle_scope(env, scope);
    }
}

/// JS thread: the handle is closed; free it and what it carried.
unsafe extern "C" fn on_closed(handle: *mut UvHandle) {
    // SAFETY: the handle was boxed in `Completer::new`, `data` is its Arc reference.
    unsafe {
        let shared = Arc::from_raw((*handle).data as *const Shared);
        drop(Box::from_raw(handle));
        // Calls queued and never signalled (teardown) cannot settle: the environment is going.
        for done in std::mem::take(&mut *shared.queue.lock().expect("queue lock")) {
            std::mem::forget(done.outcome.keep);
        }
        sys::napi_remove_async_cleanup_hook(shared.js.cleanup);
        if shared.released.load(Ordering::Acquire) {
            sys::napi_async_destroy(shared.js.env, shared.js.context);
            sys::napi_delete_reference(shared.js.env, shared.js.resource);
            shared.js.spent.delete(shared.js.env);
        }
    }
}

/// Environment teardown (JS thread): close the handle; `on_closed` completes the hook.
unsafe extern "C" fn on_teardown(_hook: sys::napi_async_cleanup_hook_handle, arg: *mut c_void) {
    // SAFETY: `arg` is the Shared kept alive by the handle's Arc until `on_closed`, which also
    // removes this hook, so it cannot run after. A handle already closing (the engine was
    // collected) is left to finish.
    close(unsafe { &*(arg as *const Shared) });
}

/// `{status, body, location?}`. JS thread.
unsafe fn response_object(
    env: sys::napi_env,
    r: quarry_engine::Response,
) -> Result<sys::napi_value> {
    let mut obj = ptr::null_mut();
    let mut status = ptr::null_mut();
    // SAFETY: JS thread, valid env, out-pointers valid.
    unsafe {
        check(sys::napi_create_object(env, &mut obj), "napi_create_object")?;
        check(
            sys::napi_create_uint32(env, r.status as u32, &mut status),
            "napi_create_uint32",
        )?;
        check(
            sys::napi_set_named_property(env, obj, c"status".as_ptr(), status),
            "set status",
        )?;
        let body = buffer(env, r.body)?;
        check(
            sys::napi_set_named_property(env, obj, c"body".as_ptr(), body),
            "set body",
        )?;
        if let Some(loc) = r.location {
            let mut s = ptr::null_mut();
            check(
                sys::napi_create_string_utf8(env, loc.as_ptr().cast(), loc.len() as isize, &mut s),
                "napi_create_string_utf8",
            )?;
            check(
                sys::napi_set_named_property(env, obj, c"location".as_ptr(), s),
                "set location",
            )?;
        }
    }
    Ok(obj)
}

/// JS thread.
unsafe fn buffer(env: sys::napi_env, bytes: Vec<u8>) -> Result<sys::napi_value> {
    let mut value = ptr::null_mut();
    if bytes.len() <= COPY_LIMIT {
        let mut data = ptr::null_mut();
        // SAFETY: JS thread; `bytes` outlives the copy.
        unsafe {
            check(
                sys::napi_create_buffer_copy(
                    env,
                    bytes.len(),
                    bytes.as_ptr().cast(),
                    &mut data,
                    &mut value,
                ),
                "napi_create_buffer_copy",
            )?;
        }
        return Ok(value);
    }
    let mut bytes = std::mem::ManuallyDrop::new(bytes.into_boxed_slice());
    let len = bytes.len();
    let data = bytes.as_mut_ptr();
    // SAFETY: ownership of the boxed slice passes to the buffer; `free_boxed` rebuilds it with
    // the same pointer and length (passed as the hint).
    unsafe {
        let status = sys::napi_create_external_buffer(
            env,
            len,
            data.cast(),
            Some(free_boxed),
            len as *mut c_void,
            &mut value,
        );
        if status != sys::Status::napi_ok {
            drop(std::mem::ManuallyDrop::into_inner(bytes));
            check(status, "napi_create_external_buffer")?;
        }
    }
    Ok(value)
}

unsafe extern "C" fn free_boxed(_env: sys::napi_env, data: *mut c_void, hint: *mut c_void) {
    // SAFETY: `data` and `hint` (the length) come from `buffer`'s boxed slice.
    drop(unsafe {
        Box::from_raw(ptr::slice_from_raw_parts_mut(
            data.cast::<u8>(),
            hint as usize,
        ))
    });
}

/// JS thread.
unsafe fn reject(env: sys::napi_env, deferred: sys::napi_deferred, message: &str, code: &str) {
    let mut msg = ptr::null_mut();
    let mut code_value = ptr::null_mut();
    let mut err = ptr::null_mut();
    // SAFETY: JS thread, valid env.
    unsafe {
        sys::napi_create_string_utf8(
            env,
            message.as_ptr().cast(),
            message.len() as isize,
            &mut msg,
        );
        sys::napi_create_string_utf8(
            env,
            code.as_ptr().cast(),
            code.len() as isize,
            &mut code_value,
        );
        sys::napi_create_error(env, code_value, msg, &mut err);
        sys::napi_reject_deferred(env, deferred, err);
    }
}
