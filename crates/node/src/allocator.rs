//! The addon's global allocator: mimalloc. Under glibc's malloc, allocation and free were ~10%
//! of the CPU of a bulk ingest (a document's values are built on the request's thread and freed
//! on tantivy's indexing threads). mimalloc keeps freed pages until a later allocation purges
//! them, which an idle process never makes: the engine's release after commits
//! (`util::memory`) runs `mi_collect` instead of glibc's `malloc_trim`.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[allow(unsafe_code)]
fn collect() {
    // SAFETY: mi_collect only walks mimalloc's own structures and may run on any thread.
    unsafe { libmimalloc_sys::mi_collect(true) }
}

/// Hands the engine the allocator's release; idempotent.
pub(crate) fn install() {
    quarry_engine::util::memory::set_release(collect);
}
