//! The bit-packed columns of [`pypto_columns`], under the name the readers and analyses use.

pub use pypto_columns::*;
