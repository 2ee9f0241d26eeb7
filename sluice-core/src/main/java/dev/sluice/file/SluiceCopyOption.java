package dev.sluice.file;

import java.nio.file.CopyOption;

/** Copy options of Sluice's own, for {@link FastFiles#copy(java.nio.file.Path, java.nio.file.Path, CopyOption...)}. */
public enum SluiceCopyOption implements CopyOption {
    /**
     * Force the copy to the storage device before it replaces the target, and the directory entry after: once
     * {@code copy} returns, a power failure leaves either the old target or the complete new one. Costs an
     * {@code fsync} of the file and one of its directory (milliseconds to seconds, depending on the device).
     */
    DURABLE
}
