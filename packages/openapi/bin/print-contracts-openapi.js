#!/usr/bin/env node
// Thin launcher: the command lives in dist/cli.js, built from src/cli.ts.
import '../dist/cli.js';
