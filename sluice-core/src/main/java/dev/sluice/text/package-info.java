/**
 * Text: a {@code Reader} and a {@code Writer} that decode and encode UTF-8, ISO-8859-1 and US-ASCII themselves, and
 * iterate lines without making a String per line.
 *
 * <p>Start with {@link dev.sluice.text.FastReader} (in place of {@code BufferedReader} over an
 * {@code InputStreamReader}; {@code readLine}, {@code forEachLine}) and {@link dev.sluice.text.FastWriter}, or with
 * {@code dev.sluice.file.FastFiles.newReader}/{@code newWriter}/{@code lines} to open them on a path (this package
 * knows streams and channels, not paths). {@link dev.sluice.text.TextCounts} counts lines, words, chars and the widest
 * line as GNU wc does ({@code FastFiles.countText} on a path). Malformed input in strict mode is a
 * {@link dev.sluice.text.MalformedTextException} naming the byte offset.
 */
package dev.sluice.text;
