"""What every step of a build stands on: the caches on disk and the removal of what they no longer need, the child processes and their memory, the digests of files."""
