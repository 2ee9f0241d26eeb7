/**
 * Streams: buffered input and output streams without locks, and copying and comparing streams.
 *
 * <p>Start with {@link dev.sluice.io.FastBufferedInputStream} and {@link dev.sluice.io.FastBufferedOutputStream},
 * drop-in replacements for {@code BufferedInputStream} and {@code BufferedOutputStream} where one thread uses the
 * stream, and {@link dev.sluice.io.Streams} for {@code copy} and {@code contentEquals}, which hand file-to-file work
 * to the kernel when both ends are files. Opening streams on paths is {@link dev.sluice.file}'s job; text is
 * {@link dev.sluice.text}'s. The default buffer size is {@code sluice.io.bufferSize} (docs/design.md lists every
 * property and the benchmark that chose its default).
 */
package dev.sluice.io;
