//! The variants: each implements [`crate::core::Variant`]. [`registry`] lists them all once
//! and dispatches over them ([`AnyPos`], [`VariantKind`], [`with_pos!`]).

pub mod chess;
pub mod immune;
pub mod micro;
pub mod recursion;
pub mod registry;

pub(crate) use registry::with_pos;
pub use registry::{AnyPos, VariantKind};
