delete element ip t v { 1.1.1.1 }
delete chain ip t a
