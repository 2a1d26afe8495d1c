# bridge family with stateful objects and maps of them
nft -c -f @FILE
nft -f @FILE
