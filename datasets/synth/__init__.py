"""Synthetic photos of revealed winning hands, with YOLO labels in the detector's 43 classes.

    art.py      art sources (Debian packages, fonts), their licences, and `fanshot art` (fetch + rasterise)
    faces.py    face images: the standard face size, cropping sheets and font glyphs, drawn faces, the cache
    layout.py   a score request -> tiles placed on the table (concealed row, melds, concealed kongs, flowers)
    scene.py    camera, tile bodies, table textures, light, shadows, blur, noise -> an image and tile polygons
    dataset.py  `fanshot synth`: many scenes in parallel -> images, labels, sidecar requests, crops
"""
