#!/usr/bin/env node
// Runs the bundled CLI (built by `npm ci` through the prepare script, or `npm run build`).
import '../dist/assistant.js';
