print("pinmint")
