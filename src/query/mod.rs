//! `query`: not implemented yet (stub; the owning issue replaces this).
