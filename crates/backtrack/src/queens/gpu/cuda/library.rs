//! The CUDA driver API and NVRTC, loaded at run time: the functions the
//! count needs, looked up by name in `libcuda.so.1` and `libnvrtc.so`, so
//! that the program builds and starts on machines without CUDA.
//!
//! The libraries are searched under their usual names (the dynamic
//! loader's paths) and then in the usual places of a CUDA install
//! (`$CUDA_HOME`, `/usr/local/cuda*`, the distribution's library folders):
//! NVRTC often lives where the loader does not look. Every failure is a
//! [`GpuError`], never a panic.

use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::path::PathBuf;

use libloading::Library;

use crate::queens::gpu::jobs::kernel_defines;
use crate::queens::gpu::tuning::Tuning;
use crate::queens::gpu::GpuError;

pub(super) type CuResult = c_int;
pub(super) type CuDevice = c_int;
pub(super) type CuContext = *mut c_void;
pub(super) type CuModule = *mut c_void;
pub(super) type CuFunction = *mut c_void;
pub(super) type CuStream = *mut c_void;
pub(super) type CuDevicePtr = u64;
pub(super) type NvrtcResult = c_int;
pub(super) type NvrtcProgram = *mut c_void;

pub(super) const CUDA_SUCCESS: CuResult = 0;
pub(super) const NVRTC_SUCCESS: NvrtcResult = 0;
pub(super) const ATTRIBUTE_MULTIPROCESSOR_COUNT: c_int = 16;
pub(super) const ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: c_int = 75;
pub(super) const ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: c_int = 76;
/// `CU_FUNC_ATTRIBUTE_NUM_REGS` and `CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES`.
pub(super) const FUNCTION_REGISTERS: c_int = 4;
pub(super) const FUNCTION_LOCAL_BYTES: c_int = 3;

/// The driver functions used, as declared in `cuda.h`.
pub(super) struct Driver {
    pub(super) init: unsafe extern "C" fn(c_uint) -> CuResult,
    pub(super) get_error_string: unsafe extern "C" fn(CuResult, *mut *const c_char) -> CuResult,
    pub(super) device_get_count: unsafe extern "C" fn(*mut c_int) -> CuResult,
    pub(super) device_get: unsafe extern "C" fn(*mut CuDevice, c_int) -> CuResult,
    pub(super) device_get_name: unsafe extern "C" fn(*mut c_char, c_int, CuDevice) -> CuResult,
    pub(super) device_get_attribute: unsafe extern "C" fn(*mut c_int, c_int, CuDevice) -> CuResult,
    pub(super) primary_ctx_retain: unsafe extern "C" fn(*mut CuContext, CuDevice) -> CuResult,
    pub(super) primary_ctx_release: unsafe extern "C" fn(CuDevice) -> CuResult,
    pub(super) ctx_set_current: unsafe extern "C" fn(CuContext) -> CuResult,
    pub(super) stream_create: unsafe extern "C" fn(*mut CuStream, c_uint) -> CuResult,
    pub(super) stream_destroy: unsafe extern "C" fn(CuStream) -> CuResult,
    pub(super) stream_synchronize: unsafe extern "C" fn(CuStream) -> CuResult,
    pub(super) module_load_data: unsafe extern "C" fn(*mut CuModule, *const c_void) -> CuResult,
    pub(super) module_unload: unsafe extern "C" fn(CuModule) -> CuResult,
    pub(super) module_get_function: unsafe extern "C" fn(*mut CuFunction, CuModule, *const c_char) -> CuResult,
    pub(super) occupancy: unsafe extern "C" fn(*mut c_int, CuFunction, c_int, usize) -> CuResult,
    pub(super) function_get_attribute: unsafe extern "C" fn(*mut c_int, c_int, CuFunction) -> CuResult,
    pub(super) mem_alloc: unsafe extern "C" fn(*mut CuDevicePtr, usize) -> CuResult,
    pub(super) mem_free: unsafe extern "C" fn(CuDevicePtr) -> CuResult,
    pub(super) memcpy_htod: unsafe extern "C" fn(CuDevicePtr, *const c_void, usize, CuStream) -> CuResult,
    pub(super) memcpy_dtoh: unsafe extern "C" fn(*mut c_void, CuDevicePtr, usize, CuStream) -> CuResult,
    pub(super) memset_d32: unsafe extern "C" fn(CuDevicePtr, c_uint, usize, CuStream) -> CuResult,
    #[allow(clippy::type_complexity)]
    pub(super) launch_kernel: unsafe extern "C" fn(
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
    pub(super) _lib: Library,
}

/// The NVRTC functions used, as declared in `nvrtc.h`.
pub(super) struct Nvrtc {
    pub(super) version: unsafe extern "C" fn(*mut c_int, *mut c_int) -> NvrtcResult,
    pub(super) get_error_string: unsafe extern "C" fn(NvrtcResult) -> *const c_char,
    pub(super) create_program: unsafe extern "C" fn(
        *mut NvrtcProgram,
        *const c_char,
        *const c_char,
        c_int,
        *const *const c_char,
        *const *const c_char,
    ) -> NvrtcResult,
    pub(super) compile_program: unsafe extern "C" fn(NvrtcProgram, c_int, *const *const c_char) -> NvrtcResult,
    pub(super) destroy_program: unsafe extern "C" fn(*mut NvrtcProgram) -> NvrtcResult,
    pub(super) get_program_log_size: unsafe extern "C" fn(NvrtcProgram, *mut usize) -> NvrtcResult,
    pub(super) get_program_log: unsafe extern "C" fn(NvrtcProgram, *mut c_char) -> NvrtcResult,
    pub(super) get_ptx_size: unsafe extern "C" fn(NvrtcProgram, *mut usize) -> NvrtcResult,
    pub(super) get_ptx: unsafe extern "C" fn(NvrtcProgram, *mut c_char) -> NvrtcResult,
    /// Machine code output (NVRTC 11.1 and later).
    pub(super) get_cubin: Option<(
        unsafe extern "C" fn(NvrtcProgram, *mut usize) -> NvrtcResult,
        unsafe extern "C" fn(NvrtcProgram, *mut c_char) -> NvrtcResult,
    )>,
    /// Kept loaded as long as the function pointers above are used.
    pub(super) _lib: Library,
    /// NVRTC's companion library, loaded from NVRTC's own folder so that
    /// NVRTC finds it even where the loader's paths do not lead there.
    pub(super) _builtins: Vec<Library>,
}

/// Looks `name` up in `lib`.
///
/// # Safety
/// `T` must be the type of the C function `name` as the library defines it.
pub(super) unsafe fn symbol<T: Copy>(lib: &Library, name: &str) -> Result<T, String> {
    // SAFETY: the caller promises the type; the pointer is only used while
    // `lib` is kept loaded (each table holds its library).
    unsafe { lib.get::<T>(name.as_bytes()) }.map(|s| *s).map_err(|e| format!("{name} is missing: {e}"))
}

/// Loads the first of `candidates` that loads.
pub(super) fn load_first(candidates: &[PathBuf]) -> Option<(Library, PathBuf)> {
    candidates.iter().find_map(|path| {
        // SAFETY: loading runs the library's initialisers; these are the
        // vendor's CUDA libraries, found under their own names.
        unsafe { Library::new(path) }.ok().map(|lib| (lib, path.clone()))
    })
}

/// Folders where CUDA installs put their libraries, most specific first.
pub(super) fn cuda_folders() -> Vec<PathBuf> {
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
pub(super) fn version_key(text: &str) -> Vec<u64> {
    text.split(|c: char| !c.is_ascii_digit()).filter(|s| !s.is_empty()).filter_map(|s| s.parse().ok()).collect()
}

/// The files in `folder` whose names start with `prefix`, newest version
/// first (the plain name, a link to the current version, before all).
pub(super) fn files_starting(folder: &std::path::Path, prefix: &str) -> Vec<PathBuf> {
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
    pub(super) fn load() -> Result<Driver, GpuError> {
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
    pub(super) fn describe(&self, code: CuResult) -> String {
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
    pub(super) fn check(&self, call: &'static str, code: CuResult) -> Result<(), GpuError> {
        if code == CUDA_SUCCESS {
            return Ok(());
        }
        Err(GpuError::Cuda { call, code, message: self.describe(code) })
    }
}

impl Nvrtc {
    pub(super) fn load() -> Result<Nvrtc, GpuError> {
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

    pub(super) fn describe(&self, code: NvrtcResult) -> String {
        // SAFETY: nvrtcGetErrorString returns a static NUL-terminated string.
        let text = unsafe { (self.get_error_string)(code) };
        if text.is_null() {
            return format!("NVRTC error {code}");
        }
        // SAFETY: non-null, a static NUL-terminated string.
        unsafe { CStr::from_ptr(text) }.to_string_lossy().into_owned()
    }

    /// NVRTC's version, as "12.4".
    pub(super) fn version_text(&self) -> String {
        let (mut major, mut minor) = (0, 0);
        // SAFETY: writes two ints.
        if unsafe { (self.version)(&mut major, &mut minor) } != NVRTC_SUCCESS {
            return "unknown".into();
        }
        format!("{major}.{minor}")
    }

    /// Compiles the kernel with `arch` (`sm_90`: machine code, `compute_90`:
    /// PTX) and returns the image for the driver (PTX ends with its NUL).
    pub(super) fn compile(&self, tuning: &Tuning, arch: &str, machine_code: bool) -> Result<Vec<u8>, GpuError> {
        let source =
            CString::new(tuning.source().as_bytes()).map_err(|_| GpuError::Compile("the source holds a NUL".into()))?;
        let name = c"kernel.cu";
        let options: Vec<CString> =
            compile_options(tuning, arch).into_iter().filter_map(|o| CString::new(o).ok()).collect();
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

    pub(super) fn compile_created(
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
    pub(super) fn log(&self, program: NvrtcProgram) -> String {
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

/// The compiler options for `arch`: the same for the compile and for the
/// cache entry's name.
pub(super) fn compile_options(tuning: &Tuning, arch: &str) -> Vec<String> {
    let mut options = vec![format!("--gpu-architecture={arch}"), "--std=c++17".into()];
    options.extend(kernel_defines(tuning.block));
    options
}
