//! The first NVIDIA GPU, opened through the CUDA driver API with the
//! kernel compiled by NVRTC (or read from the kernel cache), and its
//! runner.

mod library;
mod runner;

use std::cell::{Cell, OnceCell, RefCell};
use std::ffi::{c_char, c_int, CStr};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use super::cache;
use super::jobs::{stack_bytes, STACK_ROWS};
use super::tuning::Tuning;
use super::GpuError;
use library::*;
pub(crate) use runner::CudaRunner;

/// The first GPU. The driver library is loaded by [`Device::open`]; the
/// rest of the opening (initialising the driver, making the GPU's context,
/// compiling and loading the kernel, about 0.2 s) runs on a thread that
/// the first use waits for ([`Device::opened`]), so that a count makes its
/// first batch of jobs meanwhile.
pub(crate) struct Device {
    driver: Arc<Driver>,
    tuning: Arc<Tuning>,
    /// The thread opening the GPU, until joined.
    opening: RefCell<Option<JoinHandle<Result<Opened, GpuError>>>>,
    /// What it made.
    opened: OnceCell<Result<Opened, GpuError>>,
    /// Blocks of the kernel one multiprocessor holds at once, for the
    /// walks of the last runner made.
    blocks_per_sm: Cell<u32>,
}

/// The GPU, its context and the kernel loaded in it.
struct Opened {
    device: CuDevice,
    name: String,
    compute: (c_int, c_int),
    sms: u32,
    context: CuContext,
    module: CuModule,
    function: CuFunction,
    /// Registers per thread and bytes of local memory (spills) per thread
    /// of the compiled kernel (-1 when the driver does not say).
    registers: i32,
    local_bytes: i32,
    /// Seconds to initialise the driver and find the GPU, then to make the
    /// context, then to have the kernel loaded.
    driver_seconds: f64,
    context_seconds: f64,
    kernel_seconds: f64,
    origin: Origin,
}

// SAFETY: the handles are the driver's, valid on any thread of the process
// (the driver API is thread-safe, and every use first makes the context
// current on its own thread); the thread that made them hands them over
// and no longer uses them.
unsafe impl Send for Opened {}

/// Where the loaded kernel came from.
enum Origin {
    /// Compiled by NVRTC (its version) in this many seconds.
    Compiled(String, f64),
    /// Read from the cache.
    Cached,
}

/// A kernel image for the driver, and where it came from.
struct Image {
    bytes: Vec<u8>,
    origin: Origin,
    /// Its name in the cache, when it may be stored there.
    cache_name: Option<String>,
}

/// The kernel's machine code for `arch` (`sm_90`): from the cache when
/// `cached` and it holds it, else compiled by NVRTC.
fn machine_code(tuning: &Tuning, arch: &str, cached: bool) -> Result<Image, GpuError> {
    let cache_name =
        tuning.cache.as_ref().map(|_| cache::entry_name(tuning.source(), &compile_options(tuning, arch), arch));
    if let (Some(folder), Some(name), true) = (&tuning.cache, &cache_name, cached) {
        if let Some(bytes) = cache::load(folder, name) {
            return Ok(Image { bytes, origin: Origin::Cached, cache_name: None });
        }
    }
    compiled(tuning, arch, true).map(|image| Image { cache_name, ..image })
}

/// The kernel as PTX for `arch` (`compute_90`), for the driver to
/// translate: for a driver older than NVRTC, which cannot load NVRTC's
/// machine code.
fn portable_code(tuning: &Tuning, arch: &str) -> Result<Image, GpuError> {
    compiled(tuning, arch, false)
}

/// The kernel compiled by NVRTC for `arch`, as machine code or PTX (see
/// [`Nvrtc::compile`]), timed from loading NVRTC; not for the cache.
fn compiled(tuning: &Tuning, arch: &str, machine_code: bool) -> Result<Image, GpuError> {
    let started = Instant::now();
    let nvrtc = Nvrtc::load()?;
    let bytes = nvrtc.compile(tuning, arch, machine_code)?;
    let origin = Origin::Compiled(nvrtc.version_text(), started.elapsed().as_secs_f64());
    Ok(Image { bytes, origin, cache_name: None })
}

/// Initialises the driver and opens its first GPU: makes its context and
/// loads the kernel, which is compiled (or read from the cache) on another
/// thread while the driver makes the context: the two are the longest
/// steps of a start, and independent once the architecture is known.
/// `started` is when the opening began.
fn open_gpu(driver: &Driver, tuning: &Tuning, started: Instant) -> Result<Opened, GpuError> {
    // SAFETY: plain driver calls with valid out-pointers.
    let (device, name, compute, sms) = unsafe {
        let init = (driver.init)(0);
        if init != CUDA_SUCCESS {
            return Err(GpuError::NotFound(format!("the NVIDIA driver reports: {}", driver.describe(init))));
        }
        let mut count = 0;
        driver.check("cuDeviceGetCount", (driver.device_get_count)(&mut count))?;
        if count < 1 {
            return Err(GpuError::NotFound("the NVIDIA driver sees no GPU".into()));
        }
        let mut device: CuDevice = 0;
        driver.check("cuDeviceGet", (driver.device_get)(&mut device, 0))?;
        let mut name = [0 as c_char; 256];
        driver.check("cuDeviceGetName", (driver.device_get_name)(name.as_mut_ptr(), 255, device))?;
        let name = CStr::from_ptr(name.as_ptr()).to_string_lossy().into_owned();
        let attribute = |which: c_int| -> Result<c_int, GpuError> {
            let mut value = 0;
            driver.check("cuDeviceGetAttribute", (driver.device_get_attribute)(&mut value, which, device))?;
            Ok(value)
        };
        let compute = (attribute(ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?, attribute(ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?);
        (device, name, compute, attribute(ATTRIBUTE_MULTIPROCESSOR_COUNT)?.max(1) as u32)
    };
    let driver_seconds = started.elapsed().as_secs_f64();
    let arch = format!("sm_{}{}", compute.0, compute.1);
    let mut context: CuContext = std::ptr::null_mut();
    let (retained, context_seconds, image) = std::thread::scope(|scope| {
        let arch = arch.as_str();
        let compiling = std::thread::Builder::new()
            .name("nvrtc".into())
            .spawn_scoped(scope, move || machine_code(tuning, arch, true));
        // SAFETY: writes one context handle.
        let retained = unsafe { (driver.primary_ctx_retain)(&mut context, device) };
        let context_seconds = started.elapsed().as_secs_f64() - driver_seconds;
        let image = match compiling {
            Ok(thread) => thread.join().unwrap_or_else(|_| Err(GpuError::Compile("the compiler stopped".into()))),
            // No thread to be had: compile here, after the context.
            Err(_) => machine_code(tuning, arch, true),
        };
        (retained, context_seconds, image)
    });
    driver.check("cuDevicePrimaryCtxRetain", retained)?;
    // SAFETY: the context was just retained.
    let loaded = driver
        .check("cuCtxSetCurrent", unsafe { (driver.ctx_set_current)(context) })
        .and_then(|()| load_kernel(driver, tuning, image, &arch, &format!("compute_{}{}", compute.0, compute.1)));
    let (module, function, origin) = match loaded {
        Ok(loaded) => loaded,
        Err(e) => {
            // SAFETY: retained above, let go once.
            unsafe { (driver.primary_ctx_release)(device) };
            return Err(e);
        }
    };
    let attribute = |which| {
        let mut value = -1;
        // SAFETY: writes one int; the function is loaded.
        match unsafe { (driver.function_get_attribute)(&mut value, which, function) } {
            CUDA_SUCCESS => value,
            _ => -1,
        }
    };
    Ok(Opened {
        device,
        name,
        compute,
        sms,
        context,
        module,
        function,
        registers: attribute(FUNCTION_REGISTERS),
        local_bytes: attribute(FUNCTION_LOCAL_BYTES),
        driver_seconds,
        context_seconds,
        kernel_seconds: started.elapsed().as_secs_f64() - driver_seconds - context_seconds,
        origin,
    })
}

/// Loads the kernel in the current context: `first`, the machine code for
/// `arch` (`sm_90`) from the cache or NVRTC; if a cached image does not
/// load, freshly compiled machine code; if NVRTC cannot make machine code
/// or it does not load (a driver older than NVRTC), PTX for `portable`
/// (`compute_90`), which the driver translates. Freshly compiled machine
/// code that loads goes into the cache.
fn load_kernel(
    driver: &Driver,
    tuning: &Tuning,
    first: Result<Image, GpuError>,
    arch: &str,
    portable: &str,
) -> Result<(CuModule, CuFunction, Origin), GpuError> {
    let mut first_error = None;
    let mut image = first;
    if let Some(cached) = image.as_ref().ok().filter(|i| matches!(i.origin, Origin::Cached)) {
        match load_image(driver, cached) {
            Ok((module, function)) => return Ok((module, function, Origin::Cached)),
            Err(e) => first_error = Some(e),
        }
        // A stale or foreign entry: compile it anew.
        image = machine_code(tuning, arch, false);
    }
    match image.and_then(|compiled| load_image(driver, &compiled).map(|loaded| (loaded, compiled))) {
        Ok(((module, function), compiled)) => {
            if let (Some(folder), Some(name)) = (&tuning.cache, &compiled.cache_name) {
                // Best effort: without it the next run compiles again.
                let _ = cache::store(folder, name, &compiled.bytes);
            }
            return Ok((module, function, compiled.origin));
        }
        Err(e) => drop(first_error.get_or_insert(e)),
    }
    let ptx = portable_code(tuning, portable).and_then(|ptx| load_image(driver, &ptx).map(|loaded| (loaded, ptx)));
    match ptx {
        Ok(((module, function), ptx)) => Ok((module, function, ptx.origin)),
        Err(e) => Err(first_error.unwrap_or(e)),
    }
}

/// Loads `image` as a module of the current context and finds the kernel
/// in it.
fn load_image(driver: &Driver, image: &Image) -> Result<(CuModule, CuFunction), GpuError> {
    let mut module: CuModule = std::ptr::null_mut();
    // SAFETY: `image` is a complete CUBIN or NUL-terminated PTX (a cached
    // CUBIN was checked to be whole, see cache.rs).
    let loaded = unsafe { (driver.module_load_data)(&mut module, image.bytes.as_ptr().cast()) };
    driver.check("cuModuleLoadData", loaded)?;
    let mut function: CuFunction = std::ptr::null_mut();
    // SAFETY: the module is loaded; the name is NUL-terminated.
    let found = unsafe { (driver.module_get_function)(&mut function, module, c"count_jobs".as_ptr()) };
    if let Err(e) = driver.check("cuModuleGetFunction", found) {
        // SAFETY: loaded above, let go once.
        unsafe { (driver.module_unload)(module) };
        return Err(e);
    }
    Ok((module, function))
}

impl Device {
    /// Loads the driver library and starts the thread that opens the GPU
    /// (see [`open_gpu`]). A missing driver library and a bad setting are
    /// reported here; no GPU, or a kernel that does not compile, by the
    /// first use.
    pub(crate) fn open() -> Result<Device, GpuError> {
        let started = Instant::now();
        let tuning = Arc::new(Tuning::from_env()?);
        let driver = Arc::new(Driver::load()?);
        let dev = Device {
            driver: Arc::clone(&driver),
            tuning: Arc::clone(&tuning),
            opening: RefCell::new(None),
            opened: OnceCell::new(),
            blocks_per_sm: Cell::new(1),
        };
        match std::thread::Builder::new().name("gpu-open".into()).spawn(move || open_gpu(&driver, &tuning, started)) {
            Ok(thread) => *dev.opening.borrow_mut() = Some(thread),
            // No thread to be had: open here.
            Err(_) => drop(dev.opened.set(open_gpu(&dev.driver, &dev.tuning, started))),
        }
        Ok(dev)
    }

    /// Waits for the opening thread; its error, if it failed.
    pub(crate) fn ready(&self) -> Result<(), GpuError> {
        self.opened().map(|_| ())
    }

    /// The GPU's name if it is open by now, without waiting.
    pub(crate) fn name_if_open(&self) -> Option<&str> {
        match self.opened.get() {
            Some(Ok(opened)) => Some(&opened.name),
            _ => None,
        }
    }

    /// The GPU opened, once the opening thread is done.
    fn opened(&self) -> Result<&Opened, GpuError> {
        let made = self.opened.get_or_init(|| match self.opening.borrow_mut().take() {
            Some(thread) => {
                thread.join().unwrap_or_else(|_| Err(GpuError::Compile("the opening thread stopped".into())))
            }
            None => Err(GpuError::Compile("the GPU was not opened".into())),
        });
        made.as_ref().map_err(Clone::clone)
    }

    /// The GPU's name, as the driver gives it.
    pub(crate) fn name(&self) -> Result<&str, GpuError> {
        Ok(&self.opened()?.name)
    }

    /// Blocks of the kernel a multiprocessor holds at once when its walks
    /// have `rows` rows (their shared stacks set the limit).
    fn blocks_per_sm_for(&self, opened: &Opened, rows: usize) -> u32 {
        let mut blocks = 0;
        let shared = self.tuning.block * stack_bytes(rows);
        // SAFETY: plain driver call with a valid out-pointer and the loaded function.
        let asked =
            unsafe { (self.driver.occupancy)(&mut blocks, opened.function, self.tuning.block as c_int, shared) };
        if asked == CUDA_SUCCESS && blocks > 0 {
            blocks as u32
        } else {
            1
        }
    }

    /// Jobs per batch.
    pub(crate) fn batch(&self) -> usize {
        self.tuning.batch
    }

    /// The job depth asked for, if any (see `job_depth`).
    pub(crate) fn job_depth(&self) -> Option<usize> {
        self.tuning.job_depth
    }

    /// The GPU and the compiled kernel in a line: compute capability,
    /// multiprocessors, start-up, registers, spills, occupancy.
    pub(crate) fn summary(&self) -> String {
        let k = match self.opened() {
            Ok(k) => k,
            Err(e) => return format!("no GPU opened: {e}"),
        };
        let kernel = match &self.tuning.kernel {
            Some((path, _)) => format!("kernel {}", path.display()),
            None => "kernel".to_string(),
        };
        let origin = match &k.origin {
            Origin::Compiled(version, seconds) => format!("compiled by NVRTC {version} in {seconds:.3} s"),
            Origin::Cached => "read from the cache".to_string(),
        };
        format!(
            "{} (compute {}.{}, {} multiprocessors), opened in {:.3} s (driver {:.3} s, context {:.3} s, then the \
             kernel {:.3} s, {origin}); {kernel}: {} registers and {} bytes of local memory per thread, {} blocks \
             of {} threads per multiprocessor, batches of {} jobs",
            k.name,
            k.compute.0,
            k.compute.1,
            k.sms,
            k.driver_seconds + k.context_seconds + k.kernel_seconds,
            k.driver_seconds,
            k.context_seconds,
            k.kernel_seconds,
            k.registers,
            k.local_bytes,
            self.blocks_per_sm.get(),
            self.tuning.block,
            self.tuning.batch
        )
    }

    /// Makes the context current on the calling thread.
    fn make_current(&self) -> Result<&Opened, GpuError> {
        let opened = self.opened()?;
        // SAFETY: the context was retained by open_gpu and is released by drop.
        self.driver.check("cuCtxSetCurrent", unsafe { (self.driver.ctx_set_current)(opened.context) })?;
        Ok(opened)
    }

    /// A runner for board `n` whose jobs walk at most `rows` rows, with the
    /// head table uploaded.
    pub(crate) fn runner(&self, n: usize, rows: usize, heads: &[u32]) -> Result<CudaRunner<'_>, GpuError> {
        let opened = self.make_current()?;
        let rows = rows.clamp(1, STACK_ROWS);
        let blocks_per_sm = self.blocks_per_sm_for(opened, rows);
        self.blocks_per_sm.set(blocks_per_sm);
        CudaRunner::new(self, opened.function, n as u32, rows as u32, opened.sms * blocks_per_sm, heads)
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        // Waits for the opening thread, so as to let go of what it made.
        if let Ok(opened) = self.opened() {
            // SAFETY: the module and the context reference were made by
            // open_gpu; each is let go once, the module from its context
            // made current on this thread (which need not be the one that
            // made it, or that counted).
            unsafe {
                (self.driver.ctx_set_current)(opened.context);
                (self.driver.module_unload)(opened.module);
                (self.driver.primary_ctx_release)(opened.device);
            }
        }
    }
}
