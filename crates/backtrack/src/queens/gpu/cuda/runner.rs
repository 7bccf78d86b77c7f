//! GPU memory, streams and the runner that counts batches of jobs with
//! the loaded kernel.

use std::ffi::{c_uint, c_void};

use super::library::{CuDevicePtr, CuFunction, CuStream};
use super::Device;
use crate::queens::gpu::jobs::{stack_bytes, Job, Runner, JOB_BYTES, SLOTS};
use crate::queens::gpu::GpuError;

/// GPU memory, freed on drop.
struct Buffer<'d> {
    dev: &'d Device,
    ptr: CuDevicePtr,
    bytes: usize,
}

impl<'d> Buffer<'d> {
    fn new(dev: &'d Device, bytes: usize) -> Result<Buffer<'d>, GpuError> {
        let mut ptr: CuDevicePtr = 0;
        // SAFETY: writes one device pointer.
        dev.driver.check("cuMemAlloc", unsafe { (dev.driver.mem_alloc)(&mut ptr, bytes.max(4)) })?;
        Ok(Buffer { dev, ptr, bytes })
    }

    /// Queues the copy of `data` to the buffer on `stream`; `data` may
    /// change once this returns (the driver stages pageable memory).
    fn upload(&self, data: &[u8], stream: &Stream<'_>) -> Result<(), GpuError> {
        assert!(data.len() <= self.bytes, "upload larger than its buffer");
        let driver = &self.dev.driver;
        // SAFETY: the buffer holds at least `data.len()` bytes; the copy
        // from pageable memory is staged before the call returns.
        driver.check("cuMemcpyHtoDAsync", unsafe {
            (driver.memcpy_htod)(self.ptr, data.as_ptr().cast(), data.len(), stream.raw)
        })
    }
}

/// A CUDA stream that does not wait on other streams' work, destroyed on
/// drop.
struct Stream<'d> {
    dev: &'d Device,
    raw: CuStream,
}

/// `CU_STREAM_NON_BLOCKING`: no implicit waits on the legacy stream.
const STREAM_NON_BLOCKING: c_uint = 1;

impl<'d> Stream<'d> {
    fn new(dev: &'d Device) -> Result<Stream<'d>, GpuError> {
        let mut raw: CuStream = std::ptr::null_mut();
        // SAFETY: writes one stream handle.
        dev.driver.check("cuStreamCreate", unsafe { (dev.driver.stream_create)(&mut raw, STREAM_NON_BLOCKING) })?;
        Ok(Stream { dev, raw })
    }

    /// Waits for the stream's work; reports a failed kernel's error.
    fn synchronize(&self) -> Result<(), GpuError> {
        // SAFETY: the stream lives until drop.
        self.dev.driver.check("cuStreamSynchronize", unsafe { (self.dev.driver.stream_synchronize)(self.raw) })
    }
}

impl Drop for Stream<'_> {
    fn drop(&mut self) {
        // SAFETY: made by new, destroyed once; the driver lets queued work
        // finish first.
        unsafe { (self.dev.driver.stream_destroy)(self.raw) };
    }
}

impl Drop for Buffer<'_> {
    fn drop(&mut self) {
        // SAFETY: allocated by new, freed once.
        unsafe { (self.dev.driver.mem_free)(self.ptr) };
    }
}

/// Counts batches of jobs with the kernel.
pub(crate) struct CudaRunner<'d> {
    dev: &'d Device,
    /// The kernel.
    function: CuFunction,
    n: u32,
    /// Rows of the longest walk: the size of each thread's shared stack.
    rows: u32,
    /// Blocks each launch starts: as many as the GPU holds at once.
    grid: u32,
    slots: Vec<Slot<'d>>,
    heads: Buffer<'d>,
}

impl<'d> CudaRunner<'d> {
    /// A runner of `function` on `dev` (its context current) for board
    /// `n`, walks of at most `rows` rows and launches of `grid` blocks,
    /// with the head table uploaded.
    pub(super) fn new(
        dev: &'d Device,
        function: CuFunction,
        n: u32,
        rows: u32,
        grid: u32,
        heads: &[u32],
    ) -> Result<CudaRunner<'d>, GpuError> {
        let bytes: Vec<u8> = heads.iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut slots = Vec::with_capacity(SLOTS);
        for _ in 0..SLOTS {
            slots.push(Slot {
                stream: Stream::new(dev)?,
                next: Buffer::new(dev, 4)?,
                jobs: None,
                counts: None,
                capacity: 0,
                submitted: 0,
                upload: Vec::new(),
            });
        }
        let runner = CudaRunner { dev, function, n, rows, grid, slots, heads: Buffer::new(dev, bytes.len())? };
        runner.heads.upload(&bytes, &runner.slots[0].stream)?;
        runner.slots[0].stream.synchronize()?;
        Ok(runner)
    }
}

impl Drop for CudaRunner<'_> {
    /// Waits for the batches still out (after an error or a cancel) before
    /// their buffers and the head table are freed.
    fn drop(&mut self) {
        for slot in &self.slots {
            let _ = slot.stream.synchronize();
        }
    }
}

/// One batch's place on the GPU: its stream, buffers and job counter.
struct Slot<'d> {
    stream: Stream<'d>,
    /// The kernel's shared job counter.
    next: Buffer<'d>,
    jobs: Option<Buffer<'d>>,
    counts: Option<Buffer<'d>>,
    /// Jobs the two buffers above hold.
    capacity: usize,
    /// Jobs of the batch on the GPU.
    submitted: usize,
    upload: Vec<u8>,
}

impl Runner for CudaRunner<'_> {
    type Error = GpuError;

    fn submit(&mut self, slot: usize, jobs: &[Job]) -> Result<(), GpuError> {
        let dev = self.dev;
        dev.make_current()?;
        let (function, heads, n, rows, grid) = (self.function, self.heads.ptr, self.n, self.rows, self.grid);
        let slot = &mut self.slots[slot];
        if jobs.len() > slot.capacity {
            slot.jobs = None;
            slot.counts = None;
            slot.jobs = Some(Buffer::new(dev, jobs.len() * JOB_BYTES)?);
            slot.counts = Some(Buffer::new(dev, jobs.len() * 16)?);
            slot.capacity = jobs.len();
        }
        slot.upload.clear();
        for job in jobs {
            job.write_to(&mut slot.upload);
        }
        let (Some(job_buffer), Some(count_buffer)) = (&slot.jobs, &slot.counts) else {
            return Ok(()); // no jobs
        };
        job_buffer.upload(&slot.upload, &slot.stream)?;
        // SAFETY: `next` holds one u32.
        let cleared = unsafe { (dev.driver.memset_d32)(slot.next.ptr, 0, 1, slot.stream.raw) };
        dev.driver.check("cuMemsetD32Async", cleared)?;
        let block = dev.tuning.block;
        let blocks = (jobs.len().div_ceil(block) as u32).clamp(1, grid.max(1));
        let shared = (block * stack_bytes(rows as usize)) as c_uint;
        let mut a_jobs = job_buffer.ptr;
        let mut a_count = jobs.len() as u32;
        let mut a_heads = heads;
        let mut a_n = n;
        let mut a_counts = count_buffer.ptr;
        let mut a_next = slot.next.ptr;
        let mut a_rows = rows;
        let mut params: [*mut c_void; 7] = [
            (&mut a_jobs as *mut CuDevicePtr).cast(),
            (&mut a_count as *mut u32).cast(),
            (&mut a_heads as *mut CuDevicePtr).cast(),
            (&mut a_n as *mut u32).cast(),
            (&mut a_counts as *mut CuDevicePtr).cast(),
            (&mut a_next as *mut CuDevicePtr).cast(),
            (&mut a_rows as *mut u32).cast(),
        ];
        // SAFETY: the parameters match count_jobs's (pointer, u32, pointer,
        // u32, pointer, pointer, u32, in its order) and live through the
        // call, which copies them; the buffers hold `jobs.len()` jobs and
        // counts, and stay untouched until collect has waited for the
        // stream; the dynamic shared memory is the stack size the kernel
        // derives from `rows`, and no job walks more rows (each starts at
        // the job depth or below it, which run_batches checks).
        let launched = unsafe {
            (dev.driver.launch_kernel)(
                function,
                blocks,
                1,
                1,
                block as c_uint,
                1,
                1,
                shared,
                slot.stream.raw,
                params.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        };
        dev.driver.check("cuLaunchKernel", launched)?;
        slot.submitted = jobs.len();
        Ok(())
    }

    fn collect(&mut self, slot: usize, out: &mut Vec<[u64; 2]>) -> Result<(), GpuError> {
        let dev = self.dev;
        dev.make_current()?;
        out.clear();
        let slot = &mut self.slots[slot];
        let Some(count_buffer) = &slot.counts else {
            return Ok(());
        };
        let mut words = vec![0u64; 2 * slot.submitted];
        // SAFETY: the buffer holds at least this many counts, the vector
        // exactly as many bytes; the copy is ordered after the kernel in
        // the slot's stream and waited for before the vector is read.
        let copied = unsafe {
            (dev.driver.memcpy_dtoh)(words.as_mut_ptr().cast(), count_buffer.ptr, words.len() * 8, slot.stream.raw)
        };
        dev.driver.check("cuMemcpyDtoHAsync", copied)?;
        slot.stream.synchronize()?;
        out.extend(words.chunks_exact(2).map(|w| [w[0], w[1]]));
        slot.submitted = 0;
        Ok(())
    }
}
