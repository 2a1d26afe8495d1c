# a batch that fails for the kernel's own reasons answers with the kernel's errors only, though it also holds
# rules the dataplane cannot run (refused when the batch has no other error)
nft -f @FILE
