//! The CUDA driver API and NVRTC, loaded at run time: the dozen functions
//! the count needs, looked up by name in `libcuda.so.1` and `libnvrtc.so`,
//! so that the program builds and starts on machines without CUDA.
//!
//! The libraries are searched under their usual names (the dynamic
//! loader's paths) and then in the usual places of a CUDA install
//! (`$CUDA_HOME`, `/usr/local/cuda*`, the distribution's library folders):
//! NVRTC often lives where the loader does not look. Every failure is a
//! [`GpuError`], never a panic.

use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::path::PathBuf;

use libloading::Library;

use super::jobs::{kernel_defines, stack_bytes, Job, Runner, JOB_BYTES, SLOTS, STACK_ROWS};
use super::tuning::Tuning;
use super::GpuError;

type CuResult = c_int;
type CuDevice = c_int;
type CuContext = *mut c_void;
type CuModule = *mut c_void;
type CuFunction = *mut c_void;
type CuStream = *mut c_void;
type CuDevicePtr = u64;
type NvrtcResult = c_int;
type NvrtcProgram = *mut c_void;

const CUDA_SUCCESS: CuResult = 0;
const NVRTC_SUCCESS: NvrtcResult = 0;
const ATTRIBUTE_MULTIPROCESSOR_COUNT: c_int = 16;
const ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: c_int = 75;
const ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: c_int = 76;
/// `CU_FUNC_ATTRIBUTE_NUM_REGS` and `CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES`.
const FUNCTION_REGISTERS: c_int = 4;
const FUNCTION_LOCAL_BYTES: c_int = 3;

/// The driver functions used, as declared in `cuda.h`.
struct Driver {
    init: unsafe extern "C" fn(c_uint) -> CuResult,
    get_error_string: unsafe extern "C" fn(CuResult, *mut *const c_char) -> CuResult,
    device_get_count: unsafe extern "C" fn(*mut c_int) -> CuResult,
    device_get: unsafe extern "C" fn(*mut CuDevice, c_int) -> CuResult,
    device_get_name: unsafe extern "C" fn(*mut c_char, c_int, CuDevice) -> CuResult,
    device_get_attribute: unsafe extern "C" fn(*mut c_int, c_int, CuDevice) -> CuResult,
    primary_ctx_retain: unsafe extern "C" fn(*mut CuContext, CuDevice) -> CuResult,
    primary_ctx_release: unsafe extern "C" fn(CuDevice) -> CuResult,
    ctx_set_current: unsafe extern "C" fn(CuContext) -> CuResult,
    stream_create: unsafe extern "C" fn(*mut CuStream, c_uint) -> CuResult,
    stream_destroy: unsafe extern "C" fn(CuStream) -> CuResult,
    stream_synchronize: unsafe extern "C" fn(CuStream) -> CuResult,
    module_load_data: unsafe extern "C" fn(*mut CuModule, *const c_void) -> CuResult,
    module_unload: unsafe extern "C" fn(CuModule) -> CuResult,
    module_get_function: unsafe extern "C" fn(*mut CuFunction, CuModule, *const c_char) -> CuResult,
    occupancy: unsafe extern "C" fn(*mut c_int, CuFunction, c_int, usize) -> CuResult,
    function_get_attribute: unsafe extern "C" fn(*mut c_int, c_int, CuFunction) -> CuResult,
    mem_alloc: unsafe extern "C" fn(*mut CuDevicePtr, usize) -> CuResult,
    mem_free: unsafe extern "C" fn(CuDevicePtr) -> CuResult,
    memcpy_htod: unsafe extern "C" fn(CuDevicePtr, *const c_void, usize, CuStream) -> CuResult,
    memcpy_dtoh: unsafe extern "C" fn(*mut c_void, CuDevicePtr, usize, CuStream) -> CuResult,
    memset_d32: unsafe extern "C" fn(CuDevicePtr, c_uint, usize, CuStream) -> CuResult,
    #[allow(clippy::type_complexity)]
    launch_kernel: unsafe extern "C" fn(
        CuFunction,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        CuStream,
        *mut *mut c_void,
        *mut *mut c_void,
    ) -> CuResult,
    /// Kept loaded as long as the function pointers above are used.
    _lib: Library,
}

/// The NVRTC functions used, as declared in `nvrtc.h`.
struct Nvrtc {
    version: unsafe extern "C" fn(*mut c_int, *mut c_int) -> NvrtcResult,
    get_error_string: unsafe extern "C" fn(NvrtcResult) -> *const c_char,
    create_program: unsafe extern "C" fn(
        *mut NvrtcProgram,
        *const c_char,
        *const c_char,
        c_int,
        *const *const c_char,
        *const *const c_char,
    ) -> NvrtcResult,
    compile_program: unsafe extern "C" fn(NvrtcProgram, c_int, *const *const c_char) -> NvrtcResult,
    destroy_program: unsafe extern "C" fn(*mut NvrtcProgram) -> NvrtcResult,
    get_program_log_size: unsafe extern "C" fn(NvrtcProgram, *mut usize) -> NvrtcResult,
    get_program_log: unsafe extern "C" fn(NvrtcProgram, *mut c_char) -> NvrtcResult,
    get_ptx_size: unsafe extern "C" fn(NvrtcProgram, *mut usize) -> NvrtcResult,
    get_ptx: unsafe extern "C" fn(NvrtcProgram, *mut c_char) -> NvrtcResult,
    /// Machine code output (NVRTC 11.1 and later).
    get_cubin: Option<(
        unsafe extern "C" fn(NvrtcProgram, *mut usize) -> NvrtcResult,
        unsafe extern "C" fn(NvrtcProgram, *mut c_char) -> NvrtcResult,
    )>,
    /// Kept loaded as long as the function pointers above are used.
    _lib: Library,
    /// NVRTC's companion library, loaded from NVRTC's own folder so that
    /// NVRTC finds it even where the loader's paths do not lead there.
    _builtins: Vec<Library>,
}

/// Looks `name` up in `lib`.
///
/// # Safety
/// `T` must be the type of the C function `name` as the library defines it.
unsafe fn symbol<T: Copy>(lib: &Library, name: &str) -> Result<T, String> {
    // SAFETY: the caller promises the type; the pointer is only used while
    // `lib` is kept loaded (each table holds its library).
    unsafe { lib.get::<T>(name.as_bytes()) }.map(|s| *s).map_err(|e| format!("{name} is missing: {e}"))
}

/// Loads the first of `candidates` that loads.
fn load_first(candidates: &[PathBuf]) -> Option<(Library, PathBuf)> {
    candidates.iter().find_map(|path| {
        // SAFETY: loading runs the library's initialisers; these are the
        // vendor's CUDA libraries, found under their own names.
        unsafe { Library::new(path) }.ok().map(|lib| (lib, path.clone()))
    })
}

/// Folders where CUDA installs put their libraries, most specific first.
fn cuda_folders() -> Vec<PathBuf> {
    let mut folders = Vec::new();
    for var in ["CUDA_HOME", "CUDA_PATH", "CUDA_ROOT", "CUDA_TOOLKIT_ROOT_DIR"] {
        if let Some(root) = std::env::var_os(var) {
            let root = PathBuf::from(root);
            folders.push(root.join("lib64"));
            folders.push(root.join("lib"));
        }
    }
    folders.push(PathBuf::from("/usr/local/cuda/lib64"));
    folders.push(PathBuf::from("/usr/local/cuda/targets/x86_64-linux/lib"));
    folders.push(PathBuf::from("/usr/local/cuda/targets/sbsa-linux/lib"));
    // Versioned installs, newest first.
    let mut versioned: Vec<PathBuf> = std::fs::read_dir("/usr/local")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("cuda-")))
        .collect();
    versioned.sort_by_key(|p| std::cmp::Reverse(version_key(&p.to_string_lossy())));
    for root in versioned {
        folders.push(root.join("lib64"));
        folders.push(root.join("targets/x86_64-linux/lib"));
    }
    for folder in
        ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/opt/cuda/lib64"]
    {
        folders.push(PathBuf::from(folder));
    }
    folders
}

/// The numbers in `text`, for ordering versioned names numerically.
fn version_key(text: &str) -> Vec<u64> {
    text.split(|c: char| !c.is_ascii_digit()).filter(|s| !s.is_empty()).filter_map(|s| s.parse().ok()).collect()
}

/// The files in `folder` whose names start with `prefix`, newest version
/// first (the plain name, a link to the current version, before all).
fn files_starting(folder: &std::path::Path, prefix: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(prefix)))
        .collect();
    found.sort_by_key(|p| {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        (name != prefix, std::cmp::Reverse(version_key(&name)))
    });
    found
}

impl Driver {
    fn load() -> Result<Driver, GpuError> {
        let mut candidates = vec![PathBuf::from("libcuda.so.1"), PathBuf::from("libcuda.so")];
        for folder in [
            "/usr/lib/x86_64-linux-gnu",
            "/usr/lib/aarch64-linux-gnu",
            "/usr/lib64",
            "/usr/lib/wsl/lib",
            "/usr/local/nvidia/lib64",
        ] {
            candidates.push(PathBuf::from(folder).join("libcuda.so.1"));
        }
        let (lib, path) = load_first(&candidates)
            .ok_or_else(|| GpuError::NotFound("the NVIDIA driver library (libcuda.so.1) is not installed".into()))?;
        let missing = |e: String| GpuError::NotFound(format!("{}: {e}", path.display()));
        // SAFETY: each type below is the function's declaration in cuda.h
        // (the `_v2` names are the current ABI of the 64-bit calls).
        unsafe {
            Ok(Driver {
                init: symbol(&lib, "cuInit").map_err(missing)?,
                get_error_string: symbol(&lib, "cuGetErrorString").map_err(missing)?,
                device_get_count: symbol(&lib, "cuDeviceGetCount").map_err(missing)?,
                device_get: symbol(&lib, "cuDeviceGet").map_err(missing)?,
                device_get_name: symbol(&lib, "cuDeviceGetName").map_err(missing)?,
                device_get_attribute: symbol(&lib, "cuDeviceGetAttribute").map_err(missing)?,
                primary_ctx_retain: symbol(&lib, "cuDevicePrimaryCtxRetain").map_err(missing)?,
                primary_ctx_release: symbol(&lib, "cuDevicePrimaryCtxRelease_v2").map_err(missing)?,
                ctx_set_current: symbol(&lib, "cuCtxSetCurrent").map_err(missing)?,
                stream_create: symbol(&lib, "cuStreamCreate").map_err(missing)?,
                stream_destroy: symbol(&lib, "cuStreamDestroy_v2").map_err(missing)?,
                stream_synchronize: symbol(&lib, "cuStreamSynchronize").map_err(missing)?,
                module_load_data: symbol(&lib, "cuModuleLoadData").map_err(missing)?,
                module_unload: symbol(&lib, "cuModuleUnload").map_err(missing)?,
                module_get_function: symbol(&lib, "cuModuleGetFunction").map_err(missing)?,
                occupancy: symbol(&lib, "cuOccupancyMaxActiveBlocksPerMultiprocessor").map_err(missing)?,
                function_get_attribute: symbol(&lib, "cuFuncGetAttribute").map_err(missing)?,
                mem_alloc: symbol(&lib, "cuMemAlloc_v2").map_err(missing)?,
                mem_free: symbol(&lib, "cuMemFree_v2").map_err(missing)?,
                memcpy_htod: symbol(&lib, "cuMemcpyHtoDAsync_v2").map_err(missing)?,
                memcpy_dtoh: symbol(&lib, "cuMemcpyDtoHAsync_v2").map_err(missing)?,
                memset_d32: symbol(&lib, "cuMemsetD32Async").map_err(missing)?,
                launch_kernel: symbol(&lib, "cuLaunchKernel").map_err(missing)?,
                _lib: lib,
            })
        }
    }

    /// The driver's words for `code`.
    fn describe(&self, code: CuResult) -> String {
        let mut text: *const c_char = std::ptr::null();
        // SAFETY: cuGetErrorString writes a pointer to a static string, or
        // leaves it null for an unknown code.
        let known = unsafe { (self.get_error_string)(code, &mut text) } == CUDA_SUCCESS && !text.is_null();
        if known {
            // SAFETY: a non-null result is a NUL-terminated static string.
            unsafe { CStr::from_ptr(text) }.to_string_lossy().into_owned()
        } else {
            "unknown error".into()
        }
    }

    /// `Ok` for success, else the error of `call`.
    fn check(&self, call: &'static str, code: CuResult) -> Result<(), GpuError> {
        if code == CUDA_SUCCESS {
            return Ok(());
        }
        Err(GpuError::Cuda { call, code, message: self.describe(code) })
    }
}

impl Nvrtc {
    fn load() -> Result<Nvrtc, GpuError> {
        let mut candidates: Vec<PathBuf> =
            ["libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", "libnvrtc.so.11.1"]
                .iter()
                .map(PathBuf::from)
                .collect();
        for folder in cuda_folders() {
            candidates.extend(files_starting(&folder, "libnvrtc.so"));
        }
        let (lib, path) = load_first(&candidates).ok_or_else(|| {
            GpuError::NoCompiler("NVRTC (libnvrtc.so) is neither on the library path nor in /usr/local/cuda".into())
        })?;
        // NVRTC opens its builtins library by name when it compiles; when
        // NVRTC came from a folder, load the builtins from there first.
        let mut builtins = Vec::new();
        if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) {
            for file in files_starting(folder, "libnvrtc-builtins.so") {
                // SAFETY: NVRTC's own companion library, from NVRTC's folder.
                if let Ok(lib) = unsafe { Library::new(&file) } {
                    builtins.push(lib);
                }
            }
        }
        let missing = |e: String| GpuError::NoCompiler(format!("{}: {e}", path.display()));
        // SAFETY: each type below is the function's declaration in nvrtc.h.
        unsafe {
            let get_cubin = match (symbol(&lib, "nvrtcGetCUBINSize"), symbol(&lib, "nvrtcGetCUBIN")) {
                (Ok(size), Ok(get)) => Some((size, get)),
                _ => None,
            };
            Ok(Nvrtc {
                version: symbol(&lib, "nvrtcVersion").map_err(missing)?,
                get_error_string: symbol(&lib, "nvrtcGetErrorString").map_err(missing)?,
                create_program: symbol(&lib, "nvrtcCreateProgram").map_err(missing)?,
                compile_program: symbol(&lib, "nvrtcCompileProgram").map_err(missing)?,
                destroy_program: symbol(&lib, "nvrtcDestroyProgram").map_err(missing)?,
                get_program_log_size: symbol(&lib, "nvrtcGetProgramLogSize").map_err(missing)?,
                get_program_log: symbol(&lib, "nvrtcGetProgramLog").map_err(missing)?,
                get_ptx_size: symbol(&lib, "nvrtcGetPTXSize").map_err(missing)?,
                get_ptx: symbol(&lib, "nvrtcGetPTX").map_err(missing)?,
                get_cubin,
                _lib: lib,
                _builtins: builtins,
            })
        }
    }

    fn describe(&self, code: NvrtcResult) -> String {
        // SAFETY: nvrtcGetErrorString returns a static NUL-terminated string.
        let text = unsafe { (self.get_error_string)(code) };
        if text.is_null() {
            return format!("NVRTC error {code}");
        }
        // SAFETY: non-null, a static NUL-terminated string.
        unsafe { CStr::from_ptr(text) }.to_string_lossy().into_owned()
    }

    /// NVRTC's version, as "12.4".
    fn version_text(&self) -> String {
        let (mut major, mut minor) = (0, 0);
        // SAFETY: writes two ints.
        if unsafe { (self.version)(&mut major, &mut minor) } != NVRTC_SUCCESS {
            return "unknown".into();
        }
        format!("{major}.{minor}")
    }

    /// Compiles the kernel with `arch` (`sm_90`: machine code, `compute_90`:
    /// PTX) and returns the image for the driver (PTX ends with its NUL).
    fn compile(&self, tuning: &Tuning, arch: &str, machine_code: bool) -> Result<Vec<u8>, GpuError> {
        let source =
            CString::new(tuning.source().as_bytes()).map_err(|_| GpuError::Compile("the source holds a NUL".into()))?;
        let name = c"kernel.cu";
        let mut options = vec![format!("--gpu-architecture={arch}"), "--std=c++17".into()];
        options.extend(kernel_defines(tuning.block));
        let options: Vec<CString> = options.into_iter().filter_map(|o| CString::new(o).ok()).collect();
        let option_ptrs: Vec<*const c_char> = options.iter().map(|o| o.as_ptr()).collect();
        let mut program: NvrtcProgram = std::ptr::null_mut();
        // SAFETY: source and name are NUL-terminated and outlive the call;
        // no headers.
        let created = unsafe {
            (self.create_program)(&mut program, source.as_ptr(), name.as_ptr(), 0, std::ptr::null(), std::ptr::null())
        };
        if created != NVRTC_SUCCESS {
            return Err(GpuError::Compile(self.describe(created)));
        }
        let image = self.compile_created(program, &option_ptrs, machine_code);
        // SAFETY: `program` was created above and is destroyed once.
        unsafe { (self.destroy_program)(&mut program) };
        image
    }

    fn compile_created(
        &self,
        program: NvrtcProgram,
        options: &[*const c_char],
        machine_code: bool,
    ) -> Result<Vec<u8>, GpuError> {
        // SAFETY: `options` holds valid NUL-terminated strings that outlive
        // the call.
        let compiled = unsafe { (self.compile_program)(program, options.len() as c_int, options.as_ptr()) };
        if compiled != NVRTC_SUCCESS {
            return Err(GpuError::Compile(format!(
                "{} (NVRTC {}): {}",
                self.describe(compiled),
                self.version_text(),
                self.log(program)
            )));
        }
        let (get_size, get): (
            unsafe extern "C" fn(NvrtcProgram, *mut usize) -> NvrtcResult,
            unsafe extern "C" fn(NvrtcProgram, *mut c_char) -> NvrtcResult,
        ) = match (machine_code, self.get_cubin) {
            (true, Some(cubin)) => cubin,
            (true, None) => return Err(GpuError::Compile("this NVRTC gives no machine code".into())),
            (false, _) => (self.get_ptx_size, self.get_ptx),
        };
        let mut size = 0usize;
        // SAFETY: writes one size_t.
        let sized = unsafe { get_size(program, &mut size) };
        if sized != NVRTC_SUCCESS {
            return Err(GpuError::Compile(self.describe(sized)));
        }
        let mut image = vec![0u8; size.max(1)];
        // SAFETY: the buffer holds the `size` bytes NVRTC said it writes.
        let got = unsafe { get(program, image.as_mut_ptr().cast()) };
        if got != NVRTC_SUCCESS {
            return Err(GpuError::Compile(self.describe(got)));
        }
        Ok(image)
    }

    /// The compiler's messages.
    fn log(&self, program: NvrtcProgram) -> String {
        let mut size = 0usize;
        // SAFETY: writes one size_t.
        if unsafe { (self.get_program_log_size)(program, &mut size) } != NVRTC_SUCCESS || size == 0 {
            return String::new();
        }
        let mut log = vec![0u8; size];
        // SAFETY: the buffer holds the `size` bytes NVRTC writes.
        if unsafe { (self.get_program_log)(program, log.as_mut_ptr().cast()) } != NVRTC_SUCCESS {
            return String::new();
        }
        String::from_utf8_lossy(&log).trim_end_matches('\0').trim().to_string()
    }
}

/// The first GPU, its context made current, the kernel loaded.
pub(crate) struct Device {
    driver: Driver,
    device: CuDevice,
    context: CuContext,
    module: CuModule,
    function: CuFunction,
    name: String,
    /// Blocks of the kernel one multiprocessor holds at once, for the
    /// longest walks (a runner's shorter walks may allow more).
    blocks_per_sm: std::cell::Cell<u32>,
    /// Registers per thread and bytes of local memory (spills) per thread
    /// of the compiled kernel.
    registers: i32,
    local_bytes: i32,
    compute: (c_int, c_int),
    sms: u32,
    tuning: Tuning,
}

impl Device {
    pub(crate) fn open() -> Result<Device, GpuError> {
        let tuning = Tuning::from_env()?;
        let driver = Driver::load()?;
        // SAFETY: plain driver calls with valid out-pointers.
        unsafe {
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
            let attribute = |which: c_int, call| -> Result<c_int, GpuError> {
                let mut value = 0;
                driver.check(call, (driver.device_get_attribute)(&mut value, which, device))?;
                Ok(value)
            };
            let major = attribute(ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "cuDeviceGetAttribute")?;
            let minor = attribute(ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "cuDeviceGetAttribute")?;
            let sms = attribute(ATTRIBUTE_MULTIPROCESSOR_COUNT, "cuDeviceGetAttribute")?.max(1) as u32;
            let mut context: CuContext = std::ptr::null_mut();
            driver.check("cuDevicePrimaryCtxRetain", (driver.primary_ctx_retain)(&mut context, device))?;
            let mut dev = Device {
                driver,
                device,
                context,
                module: std::ptr::null_mut(),
                function: std::ptr::null_mut(),
                name,
                blocks_per_sm: std::cell::Cell::new(1),
                registers: -1,
                local_bytes: -1,
                compute: (major, minor),
                sms,
                tuning,
            };
            dev.make_current()?;
            let nvrtc = Nvrtc::load()?;
            dev.load_kernel(&nvrtc, major, minor)?;
            dev.blocks_per_sm.set(dev.blocks_per_sm_for(STACK_ROWS));
            let mut value = 0;
            if (dev.driver.function_get_attribute)(&mut value, FUNCTION_REGISTERS, dev.function) == CUDA_SUCCESS {
                dev.registers = value;
            }
            if (dev.driver.function_get_attribute)(&mut value, FUNCTION_LOCAL_BYTES, dev.function) == CUDA_SUCCESS {
                dev.local_bytes = value;
            }
            Ok(dev)
        }
    }

    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// Blocks of the kernel a multiprocessor holds at once when its walks
    /// have `rows` rows (their shared stacks set the limit).
    fn blocks_per_sm_for(&self, rows: usize) -> u32 {
        let mut blocks = 0;
        let shared = self.tuning.block * stack_bytes(rows);
        // SAFETY: plain driver call with a valid out-pointer and the loaded function.
        let asked = unsafe { (self.driver.occupancy)(&mut blocks, self.function, self.tuning.block as c_int, shared) };
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
    /// multiprocessors, registers, spills, occupancy.
    pub(crate) fn summary(&self) -> String {
        let kernel = match &self.tuning.kernel {
            Some((path, _)) => format!("kernel {}", path.display()),
            None => "kernel".to_string(),
        };
        format!(
            "{} (compute {}.{}, {} multiprocessors); {kernel}: {} registers and {} bytes of local memory per \
             thread, {} blocks of {} threads per multiprocessor, batches of {} jobs",
            self.name,
            self.compute.0,
            self.compute.1,
            self.sms,
            self.registers,
            self.local_bytes,
            self.blocks_per_sm.get(),
            self.tuning.block,
            self.tuning.batch
        )
    }

    fn make_current(&self) -> Result<(), GpuError> {
        // SAFETY: the context was retained by open and is released by drop.
        self.driver.check("cuCtxSetCurrent", unsafe { (self.driver.ctx_set_current)(self.context) })
    }

    /// Compiles the kernel for compute capability `major.minor`: machine
    /// code first (it loads even where the driver is older than NVRTC),
    /// PTX for the driver to translate if that fails.
    fn load_kernel(&mut self, nvrtc: &Nvrtc, major: c_int, minor: c_int) -> Result<(), GpuError> {
        let mut first_error = None;
        for (arch, machine_code) in [(format!("sm_{major}{minor}"), true), (format!("compute_{major}{minor}"), false)] {
            let image = match nvrtc.compile(&self.tuning, &arch, machine_code) {
                Ok(image) => image,
                Err(e) => {
                    first_error.get_or_insert(e);
                    continue;
                }
            };
            let mut module: CuModule = std::ptr::null_mut();
            // SAFETY: `image` is a complete CUBIN or NUL-terminated PTX.
            let loaded = unsafe { (self.driver.module_load_data)(&mut module, image.as_ptr().cast()) };
            if let Err(e) = self.driver.check("cuModuleLoadData", loaded) {
                first_error.get_or_insert(e);
                continue;
            }
            self.module = module;
            let mut function: CuFunction = std::ptr::null_mut();
            // SAFETY: the module is loaded; the name is NUL-terminated.
            let found = unsafe { (self.driver.module_get_function)(&mut function, module, c"count_jobs".as_ptr()) };
            self.driver.check("cuModuleGetFunction", found)?;
            self.function = function;
            return Ok(());
        }
        Err(first_error.unwrap_or_else(|| GpuError::Compile("no architecture to compile for".into())))
    }

    /// A runner for board `n` whose jobs walk at most `rows` rows, with the
    /// head table uploaded.
    pub(crate) fn runner(&self, n: usize, rows: usize, heads: &[u32]) -> Result<CudaRunner<'_>, GpuError> {
        self.make_current()?;
        let rows = rows.clamp(1, STACK_ROWS);
        let blocks_per_sm = self.blocks_per_sm_for(rows);
        self.blocks_per_sm.set(blocks_per_sm);
        let bytes: Vec<u8> = heads.iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut slots = Vec::with_capacity(SLOTS);
        for _ in 0..SLOTS {
            slots.push(Slot {
                stream: Stream::new(self)?,
                next: Buffer::new(self, 4)?,
                jobs: None,
                counts: None,
                capacity: 0,
                submitted: 0,
                upload: Vec::new(),
            });
        }
        let runner = CudaRunner {
            dev: self,
            n: n as u32,
            rows: rows as u32,
            grid: self.sms * blocks_per_sm,
            slots,
            heads: Buffer::new(self, bytes.len())?,
        };
        runner.heads.upload(&bytes, &runner.slots[0].stream)?;
        runner.slots[0].stream.synchronize()?;
        Ok(runner)
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        // SAFETY: the module and the context reference were made by open;
        // each is let go once.
        unsafe {
            if !self.module.is_null() {
                (self.driver.module_unload)(self.module);
            }
            (self.driver.primary_ctx_release)(self.device);
        }
    }
}

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
    n: u32,
    /// Rows of the longest walk: the size of each thread's shared stack.
    rows: u32,
    /// Blocks each launch starts: as many as the GPU holds at once.
    grid: u32,
    slots: Vec<Slot<'d>>,
    heads: Buffer<'d>,
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
        let (heads, n, rows, grid) = (self.heads.ptr, self.n, self.rows, self.grid);
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
                dev.function,
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
