/**
 * Files: streams opened on a {@code Path} through {@code FileChannel}, and whole-file copy, compare and checksum.
 *
 * <p>Start with {@link dev.sluice.file.FastFiles}, the front door: {@code newInputStream}/{@code newOutputStream}
 * (buffered; the {@code newUnbuffered*} variants are streams that know the file's size and read ahead), {@code copy}
 * (through a temporary file renamed into place, with {@link dev.sluice.file.SluiceCopyOption#DURABLE} for an fsync),
 * {@code mismatch}/{@code contentEquals} and {@code checksum}. The implementations ({@code ChannelInputStream},
 * {@code FileCopier}, {@code FileComparator}) are package-private.
 */
package dev.sluice.file;
