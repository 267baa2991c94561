#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| cardsmith_fuzz::project(data));
