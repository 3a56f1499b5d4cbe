//! Tests of the exploration.
