# nft variables (define), and include of nothing: pure parser features
nft -c -f @FILE
nft -f @FILE
